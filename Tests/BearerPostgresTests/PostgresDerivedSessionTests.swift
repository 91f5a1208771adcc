import Bearer
import BearerPostgres
import BearerTestSupport
import BearerTesting
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore

extension SharedPostgresServer {
    /// Derived sessions (a token exchange of a parent's token) in a fleet's store: a derived key's
    /// lock holds a connection while the parent is loaded and, when stale, refreshed under its
    /// own lock, so the pool must never make those wait for the connection their holder has.
    @Suite(
        "PostgresSessionStore: derived sessions",
        .enabled(if: PostgresTestServer.isInstalled, PostgresTestServer.skipReason))
    struct PostgresDerivedSessionTests {
        static let tokenService = AuthorizationServer(
            issuer: StoreFixtures.url("https://sts.example.com"),
            authorizationEndpoint: StoreFixtures.url("https://sts.example.com/authorize"),
            tokenEndpoint: StoreFixtures.url("https://sts.example.com/exchange"),
            revocationEndpoint: nil)
        static let agent = Client(id: "billing-agent", secret: ClientSecret("agent-secret"), redirectURI: nil)
        static let clock = TestClock(StoreFixtures.epoch.addingTimeInterval(60))

        static func exchanged(_ token: String) -> RecordingTransport.Reply {
            .json(
                200,
                #"{"access_token":"\#(token)","issued_token_type":"urn:ietf:params:oauth:token-type:access_token","token_type":"Bearer","expires_in":300}"#
            )
        }

        /// How many connections the store's pool holds, as its mirror says.
        static func openedConnections(of store: PostgresSessionStore) -> Int? {
            Mirror(reflecting: store).descendant("pool", "created") as? Int
        }

        /// The subject token a token exchange request sent.
        static func subjectToken(of request: TransportRequest) -> String? {
            let form = request.body.map { String(decoding: $0, as: UTF8.self) } ?? ""
            return FormEncoding.decodePairs(form).first { $0.name == "subject_token" }?.value
        }

        static func refreshed() -> RecordingTransport.Reply {
            .json(200, StoreFixtures.tokenResponse(access: "at-2", refresh: "rt-2"))
        }

        static func derive(
            audience: String, from store: PostgresSessionStore, transport: RecordingTransport
        ) async throws -> AuthSession {
            try await AuthSession.derive(
                .tokenExchange(from: "main", audiences: [audience]), at: tokenService, as: agent, store: store,
                transport: transport, clock: clock.wallClock)
        }

        @Test(
            "A pool of one derives from a parent it must refresh first: the parent's load and lock do not wait for the derived key's connection"
        )
        func poolOfOne() async throws {
            let store = try await StoreFixtures.store(poolSize: 1, lockTimeout: .seconds(20))
            try await store.save(StoreFixtures.state(expiresAt: StoreFixtures.epoch), key: "main")
            let transport = RecordingTransport(replies: [Self.refreshed(), Self.exchanged("billing-1")])
            let session = try await Self.derive(audience: "billing", from: store, transport: transport)
            #expect(try await session.validAccessToken().value == "billing-1")
            let sent = await transport.requests
            #expect(sent.map(\.url.path) == ["/token", "/exchange"])
            #expect(sent.last.flatMap(Self.subjectToken) == "at-2", "the parent's refreshed token was exchanged")
            #expect(try await store.load(key: "main")?.refreshToken == RefreshToken("rt-2"))
            #expect(try await store.load(key: session.key)?.accessToken == AccessToken("billing-1"))
            #expect(Self.openedConnections(of: store) == 1, "those opened for the parent were closed")
            await store.close()
        }

        @Test(
            "A holder reaching another key takes no turn behind a task of its store waiting for the holder's connection"
        )
        func otherKeyTakesNoTurn() async throws {
            let store = try await StoreFixtures.store(poolSize: 1, lockTimeout: .seconds(20))
            let order = Recorder<String>()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await store.withExclusiveAccess(to: "main+derived-1") { access in
                        order.record("holding")
                        // Another task takes the turn of "main" and waits for this lock's connection.
                        while !order.all.contains("waiting") { try await Task.sleep(for: .milliseconds(10)) }
                        try await Task.sleep(for: .milliseconds(200))
                        let other = access.storeForOtherKeys
                        try await other.withExclusiveAccess(to: "main") { _ in order.record("holder reached main") }
                    }
                }
                while order.all.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
                group.addTask {
                    order.record("waiting")
                    try await store.withExclusiveAccess(to: "main") { _ in order.record("task took main") }
                }
                try await group.waitForAll()
            }
            #expect(order.all == ["holding", "waiting", "holder reached main", "task took main"])
            #expect(Self.openedConnections(of: store) == 1)
            await store.close()
        }

        @Test(
            "Four derived keys of one stale parent made at once through two stores of two connections: one parent refresh, four exchanges"
        )
        func concurrentDerivations() async throws {
            let table = StoreFixtures.uniqueTable()
            let first = try await StoreFixtures.store(table: table, poolSize: 2, lockTimeout: .seconds(20))
            let second = try PostgresSessionStore(
                connectionString: try PostgresTestServer.running.connectionString, table: table, poolSize: 2,
                lockTimeout: .seconds(20))
            try await first.save(StoreFixtures.state(expiresAt: StoreFixtures.epoch), key: "main")
            let transport = RecordingTransport(
                replies: [Self.refreshed()] + (1...4).map { Self.exchanged("billing-\($0)") },
                responseDelay: .milliseconds(50))
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for (index, store) in [first, second, first, second].enumerated() {
                    group.addTask {
                        let session = try await Self.derive(
                            audience: "audience-\(index)", from: store, transport: transport)
                        return try await session.validAccessToken().value
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(tokens == Set((1...4).map { "billing-\($0)" }), "each derived key has an exchange of its own")
            #expect(await transport.requests(toPathEnding: "/token").count == 1, "the parent was refreshed once")
            #expect(await transport.requests(toPathEnding: "/exchange").count == 4)
            #expect(
                Set(await transport.requests(toPathEnding: "/exchange").map(Self.subjectToken)) == [
                    "at-2"
                ])
            #expect(try await second.keys().count == 5)
            #expect(Self.openedConnections(of: first) == 2 && Self.openedConnections(of: second) == 2)
            await first.close()
            await second.close()
        }
    }
}
