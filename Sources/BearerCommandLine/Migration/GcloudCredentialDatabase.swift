import BearerMigration
import CSQLite
import Foundation

/// gcloud's credential database, `credentials.db` in its config folder (`~/.config/gcloud`): an
/// SQLite file whose table `credentials (account_id TEXT PRIMARY KEY, value BLOB)` holds one row
/// per account signed in with `gcloud auth login`, its credential as JSON (for a user, the
/// `authorized_user` shape of application default credentials: client ID and secret, refresh
/// token, scopes). It is opened read only and never changed.
enum GcloudCredentialDatabase {
    /// One account's row.
    struct Row {
        /// The account, as gcloud names it (the user's e-mail, or a service account's).
        let account: String
        /// Its credential, as JSON.
        let value: Data
    }

    /// The rows of the database at `path`, sorted by account.
    ///
    /// - Throws: ``MigrationError`` (`malformedItem`) when the file cannot be opened read only or
    ///   has no `credentials` table, with SQLite's reason.
    static func rows(at path: String) throws -> [Row] {
        var database: OpaquePointer?
        let opened = sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, nil)
        defer { sqlite3_close(database) }
        guard opened == SQLITE_OK, let database else {
            throw failure(path, database, "cannot be opened read only")
        }
        sqlite3_busy_timeout(database, 2000)
        var statement: OpaquePointer?
        let query = "SELECT account_id, value FROM credentials ORDER BY account_id"
        guard sqlite3_prepare_v2(database, query, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure(path, database, "has no credentials table of gcloud's")
        }
        defer { sqlite3_finalize(statement) }
        var rows: [Row] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw failure(path, database, "cannot be read") }
            guard let account = text(statement, column: 0) else { continue }
            rows.append(Row(account: account, value: bytes(statement, column: 1)))
        }
        return rows
    }

    /// Column `column` of the current row as text; `nil` when it is NULL.
    private static func text(_ statement: OpaquePointer, column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// Column `column` of the current row as bytes (a BLOB, or TEXT as its UTF-8); empty for NULL.
    private static func bytes(_ statement: OpaquePointer, column: Int32) -> Data {
        guard let pointer = sqlite3_column_blob(statement, column) else { return Data() }
        return Data(bytes: pointer, count: Int(sqlite3_column_bytes(statement, column)))
    }

    /// The error for the database at `path`, with SQLite's own words when it has any.
    private static func failure(_ path: String, _ database: OpaquePointer?, _ what: String) -> MigrationError {
        let reason = database.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "no reason given"
        return MigrationError.malformedItem(
            "\(path) \(what) (SQLite: \(reason)); give gcloud's credentials.db, from its config folder "
                + "(gcloud info --format='value(config.paths.global_config_dir)').")
    }
}
