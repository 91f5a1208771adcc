#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension PostgresSessionStore {
    /// The SQL that creates the sessions table, for teams that run their own migrations;
    /// ``prepareSchema()`` runs the same statements. The table's comment carries the schema version.
    ///
    /// - Parameter table: The table's name.
    /// - Returns: The statements, separated by semicolons.
    public static func schemaSQL(table: String = "bearer_sessions") -> String {
        schemaStatements(table: table).map { $0 + ";" }.joined(separator: "\n")
    }

    private static func schemaStatements(table: String) -> [String] {
        [
            """
            CREATE TABLE IF NOT EXISTS \(table) (
                key text PRIMARY KEY,
                state bytea NOT NULL,
                sealed boolean NOT NULL,
                updated_at timestamptz NOT NULL DEFAULT now(),
                lease_owner text,
                lease_taken_at timestamptz,
                lease_until timestamptz
            )
            """,
            "COMMENT ON TABLE \(table) IS '\(schemaComment(version: schemaVersion))'",
        ]
    }

    private static func schemaComment(version: Int) -> String {
        "Bearer sessions, schema version \(version)"
    }

    /// Creates the sessions table when it does not exist; safe to call from every instance at
    /// start-up, at the same time.
    ///
    /// - Throws: ``PostgresSessionStoreError/Kind/unsupportedSchema`` when the table exists but was
    ///   made by a newer release or is not a Bearer sessions table (it is left as it is), or
    ///   another ``PostgresSessionStoreError``.
    public func prepareSchema() async throws {
        let table = self.table
        let statements = Self.schemaStatements(table: table)
        let prefix = Self.schemaComment(version: 0).dropLast()
        try await run(for: nil) { connection in
            try connection.execute("BEGIN")
            do {
                // Two instances creating the table at once would otherwise race in the catalog.
                try connection.execute(
                    "SELECT pg_advisory_xact_lock(hashtext('bearer schema'), hashtext($1::text))", [.text(table)])
                let existing = try connection.execute(
                    "SELECT obj_description(to_regclass($1::text), 'pg_class'), to_regclass($1::text) IS NOT NULL",
                    [.text(table)]
                ).first
                let exists = existing?.last.flatMap { $0 }?.first == 1
                if exists {
                    let comment = existing?.first.flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) } ?? ""
                    guard comment.hasPrefix(prefix), let version = Int(comment.dropFirst(prefix.count)) else {
                        throw PostgresSessionStoreError.unsupportedSchema(
                            "The table \(table) exists but is not a Bearer sessions table (its comment does not "
                                + "name a schema version); choose another table name.")
                    }
                    guard version <= Self.schemaVersion else {
                        throw PostgresSessionStoreError.unsupportedSchema(
                            "The table \(table) has schema version \(version); this release reads version "
                                + "\(Self.schemaVersion). Update Bearer.")
                    }
                }
                for statement in statements { try connection.execute(statement) }
                try connection.execute("COMMIT")
            } catch {
                if connection.isHealthy { _ = try? connection.execute("ROLLBACK") }
                throw error
            }
        }
    }

    static func checkTableName(_ table: String) throws {
        let parts = table.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            (1...2).contains(parts.count)
            && parts.allSatisfy { part in
                guard let first = part.unicodeScalars.first, part.utf8.count <= 63 else { return false }
                let isStart = (first >= "a" && first <= "z") || first == "_"
                return isStart
                    && part.unicodeScalars.allSatisfy {
                        ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || $0 == "_"
                    }
            }
        guard valid else {
            throw PostgresSessionStoreError.invalidConfiguration(
                "The table name must be lower-case letters, digits and _, not starting with a digit, "
                    + "at most 63 characters, optionally after a schema name and a dot.")
        }
    }
}
