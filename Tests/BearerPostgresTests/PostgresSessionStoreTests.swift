import Bearer
import BearerPostgres
import Foundation
import Testing

extension SharedPostgresServer {
    /// The store's own behaviour against a real PostgreSQL server the suite starts.
    @Suite(
        "PostgresSessionStore: round trips, keys, removal, schema, sealing, secrets",
        .enabled(if: PostgresTestServer.isInstalled, PostgresTestServer.skipReason))
    struct PostgresSessionStoreTests {
        @Test("A saved session loads back equal; a key never saved loads as nil")
        func roundTrip() async throws {
            let store = try await StoreFixtures.store()
            defer { Task { await store.close() } }
            let state = StoreFixtures.state()
            try await store.save(state, key: "user-1")
            #expect(try await store.load(key: "user-1") == state)
            #expect(try await store.load(key: "nobody") == nil)
            let replacement = StoreFixtures.state(access: "at-2", refresh: "rt-2")
            try await store.save(replacement, key: "user-1")
            #expect(try await store.load(key: "user-1") == replacement)
        }

        @Test("Keys come back sorted by their bytes; removing a key removes only that session")
        func keysAndRemoval() async throws {
            let store = try await StoreFixtures.store()
            defer { Task { await store.close() } }
            #expect(try await store.keys().isEmpty)
            for key in ["b", "a", "B", "user@example.com", "é"] {
                try await store.save(StoreFixtures.state(), key: key)
            }
            #expect(try await store.keys() == ["B", "a", "b", "user@example.com", "é"])
            try await store.remove(key: "a")
            try await store.remove(key: "never-saved")
            #expect(try await store.keys() == ["B", "b", "user@example.com", "é"])
            #expect(try await store.load(key: "a") == nil)
            #expect(try await store.load(key: "b") != nil)
        }

        @Test("prepareSchema is idempotent, also from several stores at once, and writes the documented SQL")
        func schemaIsIdempotent() async throws {
            let table = StoreFixtures.uniqueTable()
            let connection = try PostgresTestServer.running.connectionString
            let stores = try (0..<4).map { _ in try PostgresSessionStore(connectionString: connection, table: table) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for store in stores { group.addTask { try await store.prepareSchema() } }
                try await group.waitForAll()
            }
            try await stores[0].prepareSchema()
            let raw = try RawSQL(connection)
            #expect(
                try raw.query("SELECT obj_description('\(table)'::regclass, 'pg_class')")
                    == ["Bearer sessions, schema version \(PostgresSessionStore.schemaVersion)"])
            let columns = try raw.query(
                "SELECT column_name || ' ' || data_type FROM information_schema.columns "
                    + "WHERE table_name = '\(table)' ORDER BY ordinal_position")
            #expect(
                columns == [
                    "key text", "state bytea", "sealed boolean", "updated_at timestamp with time zone",
                    "lease_owner text",
                    "lease_taken_at timestamp with time zone", "lease_until timestamp with time zone",
                    "issuer text", "client_id text", "subject text", "provider_session text",
                    "ended_at timestamp with time zone",
                ])
            let sql = try PostgresSessionStore.schemaSQL(table: "other_table")
            #expect(sql.contains(#"CREATE TABLE IF NOT EXISTS "other_table" ("#))
            #expect(sql.contains(#"COMMENT ON TABLE "other_table" IS 'Bearer sessions, schema version 2';"#))
            try raw.query(sql)
            let other = try PostgresSessionStore(connectionString: connection, table: "other_table")
            try await other.prepareSchema()
            for store in stores + [other] { await store.close() }
        }

        @Test("A table of a newer schema version, or someone else's table, is refused and left as it is")
        func foreignSchemaRefused() async throws {
            let connection = try PostgresTestServer.running.connectionString
            let raw = try RawSQL(connection)
            let newer = StoreFixtures.uniqueTable()
            try raw.query(try PostgresSessionStore.schemaSQL(table: newer))
            try raw.query("COMMENT ON TABLE \(newer) IS 'Bearer sessions, schema version 3'")
            let foreign = StoreFixtures.uniqueTable()
            try raw.query("CREATE TABLE \(foreign) (id int)")
            for table in [newer, foreign] {
                let store = try PostgresSessionStore(connectionString: connection, table: table)
                let error = await #expect(throws: PostgresSessionStoreError.self) { try await store.prepareSchema() }
                #expect(error?.kind == .unsupportedSchema)
                #expect(error?.isTransient == false)
                await store.close()
            }
            #expect(
                try raw.query("SELECT obj_description('\(newer)'::regclass, 'pg_class')").first
                    == "Bearer sessions, schema version 3")
        }

        @Test("Without the table every call fails with schemaMissing, which is not transient")
        func missingSchema() async throws {
            let store = try PostgresSessionStore(
                connectionString: try PostgresTestServer.running.connectionString, table: StoreFixtures.uniqueTable())
            defer { Task { await store.close() } }
            let error = await #expect(throws: PostgresSessionStoreError.self) { try await store.load(key: "k") }
            #expect(error?.kind == .schemaMissing)
            #expect(error?.sqlState == "42P01")
            #expect(error?.isTransient == false)
            await #expect(throws: PostgresSessionStoreError.self) {
                try await store.save(StoreFixtures.state(), key: "k")
            }
        }

        @Test("A row that is not a session is an unreadableSession error and stays in the table")
        func corruptRowIsReported() async throws {
            let table = StoreFixtures.uniqueTable()
            let store = try await StoreFixtures.store(table: table)
            defer { Task { await store.close() } }
            let raw = try RawSQL(try PostgresTestServer.running.connectionString)
            try raw.query("INSERT INTO \(table) (key, state, sealed) VALUES ('broken', '\\x7b7d', false)")
            let error = await #expect(throws: BearerError.self) { try await store.load(key: "broken") }
            #expect(error?.kind == .unreadableSession)
            #expect(try raw.query("SELECT encode(state, 'hex') FROM \(table) WHERE key = 'broken'") == ["7b7d"])
        }

        @Test("Invalid table names and pool sizes are configuration errors")
        func invalidSettings() throws {
            let connection = try PostgresTestServer.running.connectionString
            for table in [
                "", "Sessions", "1table", "a;drop table x", "a.b.c", "a-b", String(repeating: "a", count: 64),
            ] {
                let error = #expect(throws: PostgresSessionStoreError.self) {
                    try PostgresSessionStore(connectionString: connection, table: table)
                }
                #expect(error?.kind == .invalidConfiguration, "\(table)")
            }
            _ = try PostgresSessionStore(connectionString: connection, table: "auth.bearer_sessions")
            let pool = #expect(throws: PostgresSessionStoreError.self) {
                try PostgresSessionStore(connectionString: connection, poolSize: 0)
            }
            #expect(pool?.kind == .invalidConfiguration)
        }

        @Test(
            "Callers beyond the pool's size wait their turn, and one that waits past the lock timeout gets poolTimeout")
        func poolWaitsAndTimesOut() async throws {
            let table = StoreFixtures.uniqueTable()
            // Waiting its turn: a lock timeout long enough for 20 loads in a row on a loaded machine.
            let patient = try await StoreFixtures.store(table: table, poolSize: 1, lockTimeout: .seconds(30))
            try await patient.save(StoreFixtures.state(), key: "k")
            let loads = try await withThrowingTaskGroup(of: AuthState?.self) { group in
                for _ in 0..<20 { group.addTask { try await patient.load(key: "k") } }
                return try await group.reduce(into: [AuthState?]()) { $0.append($1) }
            }
            #expect(
                loads == Array(repeating: StoreFixtures.state(), count: 20), "every waiter got the connection in turn")
            await patient.close()
            let store = try await StoreFixtures.store(table: table, poolSize: 1, lockTimeout: .milliseconds(300))
            try await store.withExclusiveAccess(to: "k") { access in
                // The one connection holds the lock; another key needs a connection of its own.
                let error = await #expect(throws: PostgresSessionStoreError.self) { try await store.load(key: "other") }
                #expect(error?.kind == .poolTimeout)
                #expect(error?.isTransient == true)
            }
            #expect(try await store.load(key: "k") == StoreFixtures.state(), "the pool works once the lock is released")
            await store.close()
        }

        @Test("A wait for a connection expires however short the timeout", .timeLimit(.minutes(1)))
        func shortPoolTimeoutExpires() async throws {
            let store = try await StoreFixtures.store(poolSize: 1, lockTimeout: .milliseconds(1))
            try await store.withExclusiveAccess(to: "k") { access in
                for _ in 0..<50 {
                    let error = await #expect(throws: PostgresSessionStoreError.self) {
                        try await store.load(key: "other")
                    }
                    #expect(error?.kind == .poolTimeout)
                }
            }
            await store.close()
        }
    }
}
