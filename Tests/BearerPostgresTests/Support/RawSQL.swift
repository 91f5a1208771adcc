import CLibPQ
import Foundation

/// Plain libpq, without the store: to look at rows as they are stored, to change them behind the
/// store's back, and to play another process holding a lock.
final class RawSQL: @unchecked Sendable {
    private let handle: OpaquePointer

    init(_ connectionString: String) throws {
        guard let handle = PQconnectdb(connectionString), PQstatus(handle) == CONNECTION_OK else {
            throw PostgresTestServer.Failure(description: "raw connection failed")
        }
        self.handle = handle
    }

    deinit { PQfinish(handle) }

    /// Runs `sql` and returns the first column of each row as text (`nil` for NULL).
    @discardableResult
    func query(_ sql: String) throws -> [String?] {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK else {
            throw PostgresTestServer.Failure(description: "\(sql): \(String(cString: PQerrorMessage(handle)))")
        }
        return (0..<PQntuples(result)).map { row in
            PQgetisnull(result, row, 0) != 0 ? nil : String(cString: PQgetvalue(result, row, 0))
        }
    }

    /// Runs `sql`, a query that takes long, as ``query(_:)`` does but on a thread of its own,
    /// so the suites running meanwhile keep the cooperative pool.
    func slowQuery(_ sql: String) async throws -> [String?] {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[String?], any Error>) in
            Thread { continuation.resume(with: Result { try self.query(sql) }) }.start()
        }
    }

    /// Ends the server connection holding the store's lock of `key` in `table`, as a restart or
    /// a network failure would; returns how many connections were ended.
    func terminateLockHolder(table: String, key: String) throws -> Int {
        try query("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE \(Self.isLock(table: table, key: key))").count
    }

    /// How many connections hold the store's lock of `key` in `table`.
    func lockHolders(table: String, key: String) throws -> Int {
        try query("SELECT pid FROM pg_locks WHERE \(Self.isLock(table: table, key: key))").count
    }

    /// The `pg_locks` condition for the store's lock of `key` in `table`: one 64-bit advisory
    /// key, split by PostgreSQL into `classid` (high half) and `objid` (low half).
    private static func isLock(table: String, key: String) -> String {
        """
        locktype = 'advisory' AND granted AND objsubid = 1 AND ((classid::bigint << 32) | objid::bigint)
            = hashtextextended(('\(table)'::regclass)::oid::text || '/' || '\(key)', 0)
        """
    }

    /// The server process of this connection.
    var backendPID: Int32 { PQbackendPID(handle) }
}
