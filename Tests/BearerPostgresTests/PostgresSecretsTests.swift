import Bearer
import BearerPostgres
import BearerTestSupport
import Foundation
import Testing

extension SharedPostgresServer {
    /// What the store does with secrets: passwords stay out of errors, a sealing hook keeps tokens
    /// out of the table.
    @Suite(
        "PostgresSessionStore: passwords and sealed rows",
        .enabled(if: PostgresTestServer.isInstalled, PostgresTestServer.skipReason))
    struct PostgresSecretsTests {
        private static let password = "pw-\(UUID().uuidString)"

        @Test("A connection string's password appears in no error or dump, whether libpq can parse it or not")
        func passwordNeverInErrors() async throws {
            // Port 1 on loopback: nothing listens, so the connection is refused.
            for connection in [
                "host=127.0.0.1 port=1 user=app password=\(Self.password) connect_timeout=2",
                "postgresql://app:\(Self.password)@127.0.0.1:1/app?connect_timeout=2",
            ] {
                let store = try PostgresSessionStore(connectionString: connection)
                let error = await #expect(throws: PostgresSessionStoreError.self) { try await store.keys() }
                #expect(error?.kind == .connectionFailed)
                #expect(error?.isTransient == true, "a refused connection may succeed later")
                #expect(error.map { !"\($0)".contains(Self.password) } == true)
                #expect(error.map { !$0.reason.contains(Self.password) } == true)
                var dumped = ""
                dump(store, to: &dumped)
                #expect(!dumped.contains(Self.password), "dump of the store shows no password")
                #expect(!"\(store)".contains(Self.password))
                await store.close()
            }
            // A store with a connection open (the test server trusts local users and ignores the password).
            let connected = try PostgresSessionStore(
                connectionString: try PostgresTestServer.running.connectionString + " password=\(Self.password)",
                table: "dumped_sessions")
            try await connected.prepareSchema()
            var dumped = ""
            dump(connected, to: &dumped)
            #expect(!dumped.contains(Self.password), "dump of a connected store shows no password")
            #expect(
                dumped.contains("waiting: 0") && !dumped.contains("nextWaiter"),
                "the pool's own mirror, read under its lock: \(dumped)")
            await connected.close()
            for malformed in [
                "host=127.0.0.1 password=\(Self.password) port", "host=127.0.0.1 password='\(Self.password)",
            ] {
                let error = #expect(throws: PostgresSessionStoreError.self) {
                    try PostgresSessionStore(connectionString: malformed)
                }
                #expect(error?.kind == .invalidConfiguration)
                #expect(error.map { !"\($0)".contains(Self.password) } == true)
            }
        }

        @Test("Refused credentials are a connectionFailed error that is not transient")
        func wrongDatabaseIsNotTransient() async throws {
            let connection = try PostgresTestServer.running.connectionString + " dbname=no_such_database"
            let store = try PostgresSessionStore(connectionString: connection)
            let error = await #expect(throws: PostgresSessionStoreError.self) { try await store.keys() }
            #expect(error?.kind == .connectionFailed)
            #expect(error?.isTransient == false)
            await store.close()
        }

        private static func xorSealing(_ byte: UInt8, calls: Recorder<String>? = nil) -> PostgresSessionStore.Sealing {
            PostgresSessionStore.Sealing(
                seal: { plaintext, key in
                    calls?.record("seal \(key)")
                    return Data(key.utf8) + Data([0]) + Data(plaintext.map { $0 ^ byte })
                },
                open: { sealed, key in
                    calls?.record("open \(key)")
                    let prefix = Data(key.utf8) + Data([0])
                    guard sealed.starts(with: prefix) else { throw SealMismatch() }
                    return Data(sealed.dropFirst(prefix.count).map { $0 ^ byte })
                }
            )
        }

        @Test("With a sealing hook the table holds no token; rows open only under their own key")
        func sealedRows() async throws {
            let table = StoreFixtures.uniqueTable()
            let calls = Recorder<String>()
            let store = try await StoreFixtures.store(table: table, sealing: Self.xorSealing(0x5a, calls: calls))
            let access = "at-\(UUID().uuidString)"
            let refresh = "rt-\(UUID().uuidString)"
            let state = StoreFixtures.state(access: access, refresh: refresh)
            try await store.save(state, key: "user-1")
            #expect(try await store.load(key: "user-1") == state)
            #expect(calls.all == ["seal user-1", "open user-1"])

            let raw = try RawSQL(try PostgresTestServer.running.connectionString)
            let stored = try #require(
                try raw.query("SELECT encode(state, 'escape') FROM \(table) WHERE key = 'user-1'").first ?? nil)
            #expect(!stored.contains(access) && !stored.contains(refresh))
            #expect(try raw.query("SELECT sealed::text FROM \(table)") == ["true"])

            // A sealed row copied under another user's key does not open there.
            try raw.query(
                "INSERT INTO \(table) (key, state, sealed) SELECT 'user-2', state, sealed FROM \(table) WHERE key = 'user-1'"
            )
            let swapped = await #expect(throws: PostgresSessionStoreError.self) { try await store.load(key: "user-2") }
            #expect(swapped?.kind == .sealingFailed)
            #expect(swapped?.underlyingError is SealMismatch)

            let unsealed = try PostgresSessionStore(
                connectionString: try PostgresTestServer.running.connectionString, table: table)
            let refused = await #expect(throws: PostgresSessionStoreError.self) {
                try await unsealed.load(key: "user-1")
            }
            #expect(refused?.kind == .sealingFailed)
            try await unsealed.save(state, key: "plain")
            let plain = await #expect(throws: PostgresSessionStoreError.self) { try await store.load(key: "plain") }
            #expect(plain?.kind == .sealingFailed)
            #expect(try await store.load(key: "user-1") == state, "refused reads changed nothing")
            await store.close()
            await unsealed.close()
        }

        @Test("A sealing hook that fails saves nothing and leaves the previous row")
        func failingSealSavesNothing() async throws {
            let table = StoreFixtures.uniqueTable()
            let good = try await StoreFixtures.store(table: table, sealing: Self.xorSealing(1))
            try await good.save(StoreFixtures.state(), key: "k")
            let failing = try PostgresSessionStore(
                connectionString: try PostgresTestServer.running.connectionString, table: table,
                sealing: PostgresSessionStore.Sealing(seal: { _, _ in throw SealMismatch() }, open: { data, _ in data })
            )
            let error = await #expect(throws: PostgresSessionStoreError.self) {
                try await failing.save(StoreFixtures.state(access: "at-9", refresh: "rt-9"), key: "k")
            }
            #expect(error?.kind == .sealingFailed)
            #expect(try await good.load(key: "k") == StoreFixtures.state())
            await good.close()
            await failing.close()
        }
    }

    struct SealMismatch: Error {}
}
