import Bearer
import BearerPostgres
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore

extension SharedPostgresServer {
    /// Back-channel logout in the fleet store: one statement ends the sessions a logout token names
    /// for every instance, and a token is accepted once across the fleet.
    @Suite(
        "PostgresSessionStore: back-channel logout across instances",
        .enabled(if: PostgresTestServer.isInstalled, PostgresTestServer.skipReason))
    struct PostgresBackChannelLogoutTests {
        static let clock = WallClock { StoreFixtures.epoch }

        static func state(subject: String, sid: String, refresh: String = "rt-1") -> AuthState {
            var state = StoreFixtures.state(refresh: refresh)
            state.user = AuthState.User(subject: subject)
            state.providerSessionID = sid
            return state
        }

        static func token(sid: String?, subject: String?, jti: String = UUID().uuidString) throws -> LogoutToken {
            var claims: [String: JSONValue] = [
                "iss": .string(StoreFixtures.server.issuer.absoluteString), "aud": .string(StoreFixtures.client.id),
                "iat": .number(StoreFixtures.epoch.timeIntervalSince1970), "jti": .string(jti),
                "events": .object([LogoutToken.eventURI: .object([:])]),
            ]
            if let sid { claims["sid"] = .string(sid) }
            if let subject { claims["sub"] = .string(subject) }
            return try LogoutToken(
                claims: claims, type: "logout+jwt", issuers: [StoreFixtures.server.issuer.absoluteString],
                clientIDs: [StoreFixtures.client.id], clock: clock)
        }

        /// Two instances on one table, with user-1 in sid-1 and sid-2 and user-2 in sid-3.
        static func fleet() async throws -> (PostgresSessionStore, PostgresSessionStore) {
            let table = StoreFixtures.uniqueTable()
            let first = try await StoreFixtures.store(table: table)
            let second = try await StoreFixtures.store(table: table)
            try await first.save(state(subject: "user-1", sid: "sid-1"), key: "first")
            try await first.save(state(subject: "user-1", sid: "sid-2"), key: "second")
            try await first.save(state(subject: "user-2", sid: "sid-3"), key: "other")
            return (first, second)
        }

        @Test("One instance ends the session; every instance reads it as ended; the token is refused at the other")
        func acrossInstances() async throws {
            let (first, second) = try await Self.fleet()
            defer {
                Task {
                    await first.close()
                    await second.close()
                }
            }
            let token = try Self.token(sid: "sid-1", subject: "user-1")
            #expect(try await first.endSessions(namedBy: token) == .ended(sessions: 1))
            #expect(try await second.endSessions(namedBy: token) == .replayed)
            let ended = try #require(try await second.load(key: "first"))
            #expect(ended.signInRequiredError?.code == .loginRequired)
            #expect(ended.refreshToken?.value == "rt-1", "its tokens are kept")
            #expect(try await second.load(key: "second")?.signInRequiredError == nil)
            #expect(try await second.load(key: "other")?.signInRequiredError == nil)
            #expect(
                try await second.endSessions(namedBy: try Self.token(sid: nil, subject: "user-1"))
                    == .ended(sessions: 2))
            #expect(try await first.load(key: "second")?.signInRequiredError != nil)
            #expect(try await first.load(key: "other")?.signInRequiredError == nil)
        }

        @Test("A refresh under way when the token comes saves its tokens and stays ended; a new sign-in clears the end")
        func refreshUnderWayAndNewSignIn() async throws {
            let (first, second) = try await Self.fleet()
            defer {
                Task {
                    await first.close()
                    await second.close()
                }
            }
            try await second.withExclusiveAccess(to: "first") { access in
                let stored = try #require(try await access.load())
                #expect(
                    try await first.endSessions(namedBy: try Self.token(sid: "sid-1", subject: nil))
                        == .ended(sessions: 1))
                try await access.save(Self.state(subject: "user-1", sid: "sid-1", refresh: "rt-2"), replacing: stored)
            }
            let afterRefresh = try #require(try await first.load(key: "first"))
            #expect(afterRefresh.refreshToken?.value == "rt-2", "the refreshed tokens are saved")
            #expect(afterRefresh.signInRequiredError != nil, "and the session stays ended")
            try await first.withExclusiveAccess(to: "first") { access in
                let ended = try #require(try await access.load())
                try await access.save(Self.state(subject: "user-1", sid: "sid-9", refresh: "rt-new"), replacing: ended)
            }
            #expect(try await second.load(key: "first")?.signInRequiredError == nil, "a new sign-in replaced it")
            _ = try await first.endSessions(namedBy: try Self.token(sid: "sid-2", subject: nil))
            try await first.save(Self.state(subject: "user-1", sid: "sid-8"), key: "second")
            #expect(try await second.load(key: "second")?.signInRequiredError == nil, "a save over it is a new sign-in")
        }

        @Test("A new sign-in read live, whose provider session ends before it is saved, is not ended")
        func newSignInOfAnotherProviderSession() async throws {
            let (first, second) = try await Self.fleet()
            defer {
                Task {
                    await first.close()
                    await second.close()
                }
            }
            try await second.withExclusiveAccess(to: "first") { access in
                let stored = try await access.load()
                _ = try await first.endSessions(namedBy: try Self.token(sid: "sid-1", subject: nil))
                try await access.save(
                    Self.state(subject: "user-1", sid: "sid-new", refresh: "rt-new"), replacing: stored)
            }
            #expect(try await first.load(key: "first")?.signInRequiredError == nil)
            #expect(try await first.load(key: "first")?.refreshToken?.value == "rt-new")
        }

        @Test("A version 1 table gains the columns and indexes; its rows load, and are not ended by a token")
        func upgradesVersionOne() async throws {
            let table = StoreFixtures.uniqueTable()
            let raw = try RawSQL(try PostgresTestServer.running.connectionString)
            try raw.query(
                """
                CREATE TABLE \(table) (key text PRIMARY KEY, state bytea NOT NULL, sealed boolean NOT NULL,
                    updated_at timestamptz NOT NULL DEFAULT now(), lease_owner text, lease_taken_at timestamptz,
                    lease_until timestamptz);
                COMMENT ON TABLE \(table) IS 'Bearer sessions, schema version 1'
                """)
            let encoded = String(decoding: try Self.state(subject: "user-1", sid: "sid-1").encoded(), as: UTF8.self)
            try raw.query(
                "INSERT INTO \(table) (key, state, sealed) VALUES ('old', convert_to('\(encoded.replacingOccurrences(of: "'", with: "''"))', 'UTF8'), false)"
            )
            let store = try await StoreFixtures.store(table: table)
            defer { Task { await store.close() } }
            #expect(
                try raw.query("SELECT obj_description('\(table)'::regclass, 'pg_class')") == [
                    "Bearer sessions, schema version 2"
                ])
            // The key, the logout lookups' two, and the account lists' key-prefix index.
            #expect(
                try raw.query("SELECT indexname FROM pg_indexes WHERE tablename = '\(table)' ORDER BY indexname")
                    == [
                        "\(table)_by_key_prefix", "\(table)_by_provider_session", "\(table)_by_subject",
                        "\(table)_pkey",
                    ])
            #expect(try await store.load(key: "old")?.providerSessionID == "sid-1")
            #expect(
                try await store.endSessions(namedBy: try Self.token(sid: "sid-1", subject: nil)) == .ended(sessions: 0))
            try await store.withExclusiveAccess(to: "old") { access in
                let stored = try await access.load()
                try await access.save(Self.state(subject: "user-1", sid: "sid-1", refresh: "rt-2"), replacing: stored)
            }
            #expect(
                try await store.endSessions(namedBy: try Self.token(sid: "sid-1", subject: nil)) == .ended(sessions: 1),
                "its next save writes the columns")
        }
    }
}
