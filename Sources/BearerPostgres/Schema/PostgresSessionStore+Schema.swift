#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension PostgresSessionStore {
    /// The SQL that creates the sessions table, and beside it the table of pending web sign-ins
    /// (see ``PendingSignInStore``; its name is the sessions table's followed by `_pending`, when
    /// that fits in 63 bytes) and the table of logout tokens received (`_logout_tokens`, see
    /// ``endSessions(namedBy:)``), for teams that run their own migrations; a table of schema
    /// version 1 gains the columns and indexes of version 2; ``prepareSchema()`` runs
    /// the same statements. The sessions table's comment carries the schema version.
    ///
    /// - Parameter table: The table's name, spelled as for ``init(connectionString:table:poolSize:lockTimeout:sealing:)``.
    /// - Returns: The statements, separated by semicolons, with the table's name quoted.
    /// - Throws: ``PostgresSessionStoreError/Kind/invalidConfiguration`` for a name the store
    ///   would refuse.
    public static func schemaSQL(table: String = "bearer_sessions") throws -> String {
        schemaStatements(table: try TableName(table)).map { $0 + ";" }.joined(separator: "\n")
    }

    private static func schemaStatements(table name: TableName) -> [String] {
        let table = name.sql
        let pending = name.suffixed(pendingTableSuffix).map { pending in
            [
                """
                CREATE TABLE IF NOT EXISTS \(pending.sql) (
                    state text PRIMARY KEY,
                    pending bytea NOT NULL,
                    sealed boolean NOT NULL,
                    created_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                "COMMENT ON TABLE \(pending.sql) IS 'Bearer pending sign-ins of \(table.replacing("'", with: "''"))'",
            ]
        }
        let logoutTokens = name.suffixed(logoutTokensTableSuffix).map { logout in
            [
                """
                CREATE TABLE IF NOT EXISTS \(logout.sql) (
                    issuer text NOT NULL,
                    jti text NOT NULL,
                    expires_at timestamptz NOT NULL,
                    PRIMARY KEY (issuer, jti)
                )
                """,
                "COMMENT ON TABLE \(logout.sql) IS 'Bearer logout tokens received for \(table.replacing("'", with: "''"))'",
            ]
        }
        return [
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
            // Version 2: what a logout token is matched against, indexed (see SessionColumns).
            """
            ALTER TABLE \(table) ADD COLUMN IF NOT EXISTS issuer text, ADD COLUMN IF NOT EXISTS client_id text,
                ADD COLUMN IF NOT EXISTS subject text, ADD COLUMN IF NOT EXISTS provider_session text,
                ADD COLUMN IF NOT EXISTS ended_at timestamptz
            """,
            "CREATE INDEX IF NOT EXISTS \(name.indexName("_by_subject")) ON \(table) (issuer, subject)",
            "CREATE INDEX IF NOT EXISTS \(name.indexName("_by_provider_session")) ON \(table) (issuer, provider_session)",
            // An account list's keys, found by their prefix (an index a LIKE 'prefix%' can use
            // whatever the database's collation); adding it changes no row.
            "CREATE INDEX IF NOT EXISTS \(name.indexName("_by_key_prefix")) ON \(table) (key text_pattern_ops)",
            "COMMENT ON TABLE \(table) IS '\(schemaComment(version: schemaVersion))'",
        ] + (pending ?? []) + (logoutTokens ?? [])
    }

    /// What the pending sign-ins table's name adds to the sessions table's.
    static let pendingTableSuffix = "_pending"

    /// What the table of logout tokens received (their `jti`s, until they expire) adds to the
    /// sessions table's name.
    static let logoutTokensTableSuffix = "_logout_tokens"

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
        let (table, spelling) = (tableName.sql, self.table)
        let (schema, name) = (tableName.parts.dropLast().first, tableName.parts.last ?? "")
        let statements = Self.schemaStatements(table: tableName)
        let prefix = Self.schemaComment(version: 0).dropLast()
        try await run { connection in
            try connection.execute("BEGIN")
            do {
                // Two instances creating the table at once would otherwise race in the catalog;
                // the lock names the schema the table is (or will be) in, whatever the spelling.
                try connection.execute(
                    """
                    SELECT pg_advisory_xact_lock(
                        hashtextextended('bearer schema/' || coalesce(nullif($1::text, ''), current_schema()) || '.' || $2::text, 0))
                    """, [.text(schema ?? ""), .text(name)])
                let existing = try connection.execute(
                    "SELECT obj_description(to_regclass($1::text), 'pg_class'), to_regclass($1::text) IS NOT NULL",
                    [.text(table)]
                ).first
                let exists = existing?.last.flatMap { $0 }?.first == 1
                if exists {
                    let comment = existing?.first.flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) } ?? ""
                    guard comment.hasPrefix(prefix), let version = Int(comment.dropFirst(prefix.count)) else {
                        throw PostgresSessionStoreError.unsupportedSchema(
                            "The table \(spelling) exists but is not a Bearer sessions table (its comment does not "
                                + "name a schema version); choose another table name.")
                    }
                    guard version <= Self.schemaVersion else {
                        throw PostgresSessionStoreError.unsupportedSchema(
                            "The table \(spelling) has schema version \(version); this release reads version "
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
}
