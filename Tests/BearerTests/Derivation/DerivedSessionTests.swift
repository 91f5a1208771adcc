import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Internals) @_spi(Migration) @_spi(CommandLine) @testable import BearerCore

@Suite("Derived sessions: made from a parent's token, made again from a fresh parent")
struct DerivedSessionTests {
    static let tokenService = AuthorizationServer(
        issuer: Fixtures.url("https://sts.example.com"),
        authorizationEndpoint: Fixtures.url("https://sts.example.com/authorize"),
        tokenEndpoint: Fixtures.url("https://sts.example.com/token"),
        revocationEndpoint: Fixtures.url("https://sts.example.com/revoke"))
    static let stsClient = Client(id: "billing-agent", secret: ClientSecret("agent-secret"), redirectURI: nil)
    static let now = Fixtures.epoch.addingTimeInterval(60)

    static func parent(expiresIn: TimeInterval = 3600, idTokenExpiresIn: TimeInterval = 3600) throws -> AuthState {
        let idToken = TestTokens.jwt([
            "iss": .string(Fixtures.issuer), "sub": .string("ada"), "aud": .string(Fixtures.publicClient.id),
            "iat": .number(Fixtures.epoch.timeIntervalSince1970),
            "exp": .number(Fixtures.epoch.timeIntervalSince1970 + idTokenExpiresIn),
        ])
        return AuthState(
            server: Fixtures.server, client: Fixtures.publicClient,
            accessToken: AccessToken(TestTokens.random("parent")),
            accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(expiresIn),
            refreshToken: RefreshToken(TestTokens.random("parent-refresh")), idToken: try IDToken(idToken),
            grantedScopes: ["openid"], user: AuthState.User(subject: "ada", email: "ada@example.com"))
    }

    static func exchanged(_ token: String, expiresIn: Int = 300, refreshToken: String? = nil)
        -> RecordingTransport.Reply
    {
        let refresh = refreshToken.map { #","refresh_token":"\#($0)""# } ?? ""
        return .json(
            200,
            #"{"access_token":"\#(token)","issued_token_type":"urn:ietf:params:oauth:token-type:access_token","token_type":"Bearer","expires_in":\#(expiresIn)\#(refresh)}"#
        )
    }

    static let recipe = SessionDerivation.tokenExchange(from: "main", audiences: ["billing"], scopes: ["invoices"])

    static func derive(
        _ recipe: SessionDerivation = recipe, store: any SessionStore, transport: RecordingTransport,
        at now: Date = now
    ) async throws -> AuthSession {
        try await AuthSession.derive(
            recipe, at: tokenService, as: stsClient, store: store, transport: transport, clock: .fixed(now))
    }

    @Test("derive exchanges the parent's access token, saves the result under the parent's derived key, and reuses it")
    func deriveAndReuse() async throws {
        let store = InMemorySessionStore()
        let parent = try Self.parent()
        try await store.save(parent, key: "main")
        let issued = TestTokens.random("billing")
        let transport = RecordingTransport(replies: [Self.exchanged(issued)])
        let session = try await Self.derive(store: store, transport: transport)
        #expect(session.key.hasPrefix("main+derived-") && session.key.count == "main+derived-".count + 16)
        let sent = try #require(await transport.requests.first)
        #expect(sent.url == Self.tokenService.tokenEndpoint)
        #expect(sent.formBody["subject_token"] == parent.accessToken?.value)
        #expect(sent.formBody["subject_token_type"] == "urn:ietf:params:oauth:token-type:access_token")
        #expect(sent.formBody["audience"] == "billing")
        let saved = try #require(try await store.load(key: session.key))
        #expect(saved.accessToken?.value == issued)
        #expect(saved.derivation == Self.recipe)
        #expect(saved.user?.subject == "ada", "the derived session is the parent's user's")
        #expect(saved.refreshToken == nil)
        let envelope = try JSONSerialization.jsonObject(with: JSONEncoder().encode(saved)) as? [String: Any]
        #expect(
            envelope?["version"] as? Int == 4, "a release without derivation refuses it rather than drop the recipe")
        #expect(try JSONDecoder().decode(AuthState.self, from: JSONEncoder().encode(saved)) == saved)
        #expect(!"\(saved)".contains(issued))

        let again = try await Self.derive(store: store, transport: transport)
        #expect(again.key == session.key)
        #expect(await transport.requests.count == 1, "a working derived session is reused, nothing sent")
        #expect(try await again.validAccessToken().value == issued)
    }

    @Test("A stale derived session is made again from a refreshed parent, once for every concurrent caller")
    func staleIsDerivedAgain() async throws {
        let store = InMemorySessionStore()
        try await store.save(try Self.parent(expiresIn: 600), key: "main")
        let transport = RecordingTransport(replies: [Self.exchanged(TestTokens.random("first"))])
        let session = try await Self.derive(store: store, transport: transport)
        let later = Self.now.addingTimeInterval(900)
        let parentToken = TestTokens.random("parent-new")
        let second = TestTokens.random("second")
        await transport.enqueue(
            .json(200, #"{"access_token":"\#(parentToken)","token_type":"Bearer","expires_in":3600}"#))
        await transport.enqueue(Self.exchanged(second))
        let restored = try #require(
            try await AuthSession.restore(
                key: session.key, from: store, transport: transport, clock: .fixed(later)))
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 { group.addTask { try await restored.validAccessToken().value } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(tokens) == [second])
        let grants = await transport.requests.dropFirst().map { $0.formBody["grant_type"] }
        #expect(grants == ["refresh_token", "urn:ietf:params:oauth:grant-type:token-exchange"])
        #expect(await transport.requests.last?.formBody["subject_token"] == parentToken, "the parent's fresh token")
        #expect(try await store.load(key: "main")?.accessToken?.value == parentToken, "the parent's refresh is saved")
        #expect(try await store.load(key: session.key)?.accessToken?.value == second)
    }

    @Test("While the parent needs a sign-in the derived session fails, unmarked, and works once the parent is back")
    func parentNeedsSignIn() async throws {
        let store = InMemorySessionStore()
        let parent = try Self.parent(expiresIn: 600)
        try await store.save(parent, key: "main")
        let transport = RecordingTransport(replies: [Self.exchanged(TestTokens.random("first"))])
        let session = try await Self.derive(store: store, transport: transport)
        let later = Self.now.addingTimeInterval(900)
        await transport.enqueue(.json(400, #"{"error":"invalid_grant"}"#))
        let restored = try #require(
            try await AuthSession.restore(
                key: session.key, from: store, transport: transport, clock: .fixed(later)))
        let error = await #expect(throws: BearerError.self) { _ = try await restored.validAccessToken() }
        #expect(error?.kind == .signInRequired)
        #expect(try await store.load(key: "main")?.signInRequired == true, "the parent is marked")
        #expect(try await store.load(key: session.key)?.signInRequired == false, "the derived session is not")
        #expect(await transport.requests.count == 2, "nothing is exchanged for a parent that needs a sign-in")

        // The user signs in to the parent again.
        var back = try Self.parent(expiresIn: 7200)
        back.accessTokenExpiresAt = later.addingTimeInterval(3600)
        try await store.save(back, key: "main")
        let third = TestTokens.random("third")
        await transport.enqueue(Self.exchanged(third))
        #expect(try await restored.validAccessToken().value == third)
        #expect(await transport.requests.last?.formBody["subject_token"] == back.accessToken?.value)
    }

    @Test("A derived session whose parent is gone needs a sign-in and sends nothing")
    func parentGone() async throws {
        let store = InMemorySessionStore()
        try await store.save(try Self.parent(), key: "main")
        let transport = RecordingTransport(replies: [Self.exchanged(TestTokens.random("first"))])
        let session = try await Self.derive(store: store, transport: transport)
        try await store.remove(key: "main")
        let restored = try #require(
            try await AuthSession.restore(
                key: session.key, from: store, transport: transport, clock: .fixed(Self.now.addingTimeInterval(900))))
        let error = await #expect(throws: BearerError.self) { _ = try await restored.validAccessToken() }
        #expect(error?.kind == .signInRequired)
        #expect(await transport.requests.count == 1)
        let fresh = await #expect(throws: BearerError.self) {
            _ = try await Self.derive(store: InMemorySessionStore(), transport: transport)
        }
        #expect(fresh?.kind == .signInRequired)
    }

    @Test("A derived grant with a refresh token refreshes; once that grant ends, it is derived again")
    func derivedRefreshToken() async throws {
        let store = InMemorySessionStore()
        try await store.save(try Self.parent(expiresIn: 7200), key: "main")
        let transport = RecordingTransport(replies: [
            Self.exchanged(TestTokens.random("first"), refreshToken: TestTokens.random("derived-refresh"))
        ])
        let session = try await Self.derive(store: store, transport: transport)
        let refreshed = TestTokens.random("refreshed")
        await transport.enqueue(.json(200, #"{"access_token":"\#(refreshed)","token_type":"Bearer","expires_in":300}"#))
        let later = try #require(
            try await AuthSession.restore(
                key: session.key, from: store, transport: transport, clock: .fixed(Self.now.addingTimeInterval(600))))
        #expect(try await later.validAccessToken().value == refreshed)
        #expect(await transport.requests.last?.url == Self.tokenService.tokenEndpoint)
        #expect(await transport.requests.last?.formBody["grant_type"] == "refresh_token")

        let again = TestTokens.random("again")
        await transport.enqueue(.json(400, #"{"error":"invalid_grant"}"#))
        await transport.enqueue(Self.exchanged(again))
        let muchLater = try #require(
            try await AuthSession.restore(
                key: session.key, from: store, transport: transport, clock: .fixed(Self.now.addingTimeInterval(1200))))
        #expect(try await muchLater.validAccessToken().value == again)
        #expect(try await store.load(key: session.key)?.signInRequired == false)
    }

    @Test("Signing out of the parent removes what was derived from it; disconnecting revokes it too")
    func parentSignOut() async throws {
        for revoking in [false, true] {
            let store = InMemorySessionStore()
            try await store.save(try Self.parent(), key: "main")
            try await store.save(try Self.parent(), key: "main+derived-notthisone")
            let derivedToken = TestTokens.random("derived")
            let transport = RecordingTransport(replies: [Self.exchanged(derivedToken)])
            let derived = try await Self.derive(store: store, transport: transport)
            let parent = try #require(
                try await AuthSession.restore(key: "main", from: store, transport: transport, clock: .fixed(Self.now)))
            if revoking {
                for _ in 0..<3 { await transport.enqueue(.json(200, "{}")) }
                _ = try await parent.disconnect()
                let revoked = await transport.requests(toPathEnding: "/revoke").map { $0.formBody["token"] }
                #expect(revoked.contains(derivedToken), "the derived grant is revoked at its server")
            } else {
                try await parent.signOut()
                #expect(await transport.requests.count == 1, "a sign-out sends nothing")
            }
            #expect(try await store.load(key: derived.key) == nil)
            #expect(try await store.load(key: "main") == nil)
            #expect(
                try await store.load(key: "main+derived-notthisone") != nil,
                "a session under a derived-looking key that names no such parent is not removed")
        }
    }

    @Test("A token exchange that issues something other than a Bearer access token makes no session")
    func notAnAccessToken() async throws {
        let store = InMemorySessionStore()
        try await store.save(try Self.parent(), key: "main")
        let transport = RecordingTransport(replies: [
            .json(
                200,
                #"{"access_token":"tok","issued_token_type":"urn:ietf:params:oauth:token-type:access_token","token_type":"N_A"}"#
            ),
            .json(200, "{}"),
        ])
        let error = await #expect(throws: BearerError.self) {
            _ = try await Self.derive(store: store, transport: transport)
        }
        #expect(error?.kind == .invalidResponse)
        #expect(try await store.keys() == ["main"])
    }

    @Test("Recipes that cannot be followed are refused before anything is sent")
    func badRecipes() async throws {
        let store = InMemorySessionStore()
        try await store.save(try Self.parent(), key: "main")
        let transport = RecordingTransport()
        for recipe in [
            SessionDerivation.tokenExchange(from: "main", subjectTokenType: .refreshToken),
            SessionDerivation.tokenExchange(from: "main", requestedTokenType: .identityAssertion),
            SessionDerivation.tokenExchange(from: "main", requestedTokenType: .refreshToken),
        ] {
            let error = await #expect(throws: BearerError.self) {
                _ = try await Self.derive(recipe, store: store, transport: transport)
            }
            #expect(error?.kind == .invalidConfiguration)
        }
        #expect(await transport.requests.isEmpty)
    }
}
