import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Testing) @_spi(Migration) @testable import BearerCore

/// Back-channel logout on the fake transport: a logout token signed by the provider's published key
/// ends exactly the sessions it names; a hostile or broken one ends nothing, with a 400.
@Suite("Back-channel logout: the sessions a logout token names end, and nothing else")
struct BackChannelLogoutTests {
    @Test("A token naming a provider session ends that session only; its tokens are kept")
    func endsTheNamedSession() async throws {
        let fixtures = try await LogoutFixtures.make()
        let answer = await fixtures.logout.respond(to: LogoutFixtures.post(try await fixtures.token()))
        #expect(answer.status == 200)
        #expect(answer.headerFields["Cache-Control"] == "no-store")
        #expect(answer.body.isEmpty)
        #expect(try await fixtures.endedKeys() == ["first"])
        let ended = try #require(try await fixtures.store.load(key: "first"))
        #expect(ended.signInRequiredError?.code == .loginRequired)
        #expect(ended.refreshToken?.value == "rt-sid-1", "the tokens are kept, so a disconnect can revoke them")
    }

    @Test("The ended session's next request fails with sign-in required, and nothing is sent to refresh it")
    func endedSessionNeedsSignIn() async throws {
        let fixtures = try await LogoutFixtures.make()
        _ = try await fixtures.logout.receive(try await fixtures.token())
        let transport = RecordingTransport()
        let session = try #require(
            try await AuthSession.restore(key: "first", from: fixtures.store, transport: transport))
        let error = await #expect(throws: BearerError.self) { _ = try await session.validAccessToken() }
        #expect(error?.signInRequired == true)
        #expect(await transport.requests.isEmpty)
        let other = try #require(
            try await AuthSession.restore(key: "second", from: fixtures.store, transport: transport))
        #expect(try await other.validAccessToken().value == "at-sid-2")
    }

    @Test("A token naming only the user ends all of that user's sessions")
    func endsTheUsersSessions() async throws {
        let fixtures = try await LogoutFixtures.make()
        let ending = try await fixtures.logout.receive(try await fixtures.token(["sid": nil]))
        #expect(ending == .ended(sessions: 2))
        #expect(try await fixtures.endedKeys() == ["first", "second"])
    }

    @Test("Tokens as glewlwyd 2.7 and idpyoidc 5.0 send them: typ JWT without exp, no typ with a day's exp")
    func providersTokens() async throws {
        let fixtures = try await LogoutFixtures.make()
        var header = fixtures.header
        header["typ"] = "JWT"
        #expect(
            try await fixtures.logout.receive(try await fixtures.token(["exp": nil], header: header))
                == .ended(sessions: 1))
        header["typ"] = nil
        let day = JSONValue.number(Fixtures.epoch.timeIntervalSince1970 + 86_400)
        #expect(
            try await fixtures.logout.receive(
                try await fixtures.token(["exp": day, "sub": nil, "sid": "sid-2"], header: header))
                == .ended(sessions: 1))
        #expect(try await fixtures.endedKeys() == ["first", "second"])
    }

    @Test("A token comes once: the same jti again is refused and changes nothing")
    func replay() async throws {
        let fixtures = try await LogoutFixtures.make()
        let token = try await fixtures.token(["sid": nil, "sub": "user-2"])
        #expect(await fixtures.logout.respond(to: LogoutFixtures.post(token)).status == 200)
        let again = await fixtures.logout.respond(to: LogoutFixtures.post(token))
        #expect(again.status == 400)
        #expect(LogoutFixtures.error(of: again) == "invalid_request")
        #expect(try await fixtures.logout.receive(token) == .replayed)
        #expect(try await fixtures.endedKeys() == ["other"])
    }

    static let hostile: [(name: String, claims: [String: JSONValue?], header: [String: JSONValue]?)] = [
        ("a nonce present", ["nonce": "n-1"], nil),
        ("no events", ["events": nil], nil),
        ("a wrong event URI", ["events": .object(["http://schemas.openid.net/event/other": .object([:])])], nil),
        ("an event that is not an object", ["events": .object([LogoutToken.eventURI: "yes"])], nil),
        ("a wrong aud", ["aud": "another-client"], nil),
        (
            "expired",
            [
                "iat": .number(Fixtures.epoch.timeIntervalSince1970 - 3600),
                "exp": .number(Fixtures.epoch.timeIntervalSince1970 - 3480),
            ], nil
        ),
        (
            "issued too long ago for a long exp",
            [
                "iat": .number(Fixtures.epoch.timeIntervalSince1970 - 1200),
                "exp": .number(Fixtures.epoch.timeIntervalSince1970 + 3600),
            ], nil
        ),
        ("issued in the future", ["iat": .number(Fixtures.epoch.timeIntervalSince1970 + 3600)], nil),
        ("neither sid nor sub", ["sid": nil, "sub": nil], nil),
        ("no jti", ["jti": nil], nil),
        ("another issuer", ["iss": "https://elsewhere.example.com"], nil),
        ("the typ of another token", [:], ["alg": "ES256", "kid": "key-1", "typ": "at+jwt"]),
        ("an HMAC algorithm", [:], ["alg": "HS256", "kid": "key-1", "typ": "logout+jwt"]),
        ("a key of its own", [:], ["alg": "ES256", "kid": "key-1", "jwk": .object(["kty": "EC"])]),
    ]

    @Test(
        "A hostile or broken token is refused with 400 and ends nothing",
        arguments: hostile.indices)
    func hostileToken(_ index: Int) async throws {
        let (name, claims, header) = Self.hostile[index]
        let fixtures = try await LogoutFixtures.make()
        let before = try await fixtures.store.load(key: "first")
        let token = try await fixtures.token(claims, header: header)
        let answer = await fixtures.logout.respond(to: LogoutFixtures.post(token))
        #expect(answer.status == 400, "\(name)")
        #expect(LogoutFixtures.error(of: answer) == "invalid_request", "\(name)")
        #expect(answer.headerFields["Cache-Control"] == "no-store")
        #expect(!String(decoding: answer.body, as: UTF8.self).contains(token.prefix(40)), "no token in the answer")
        #expect(try await fixtures.endedKeys().isEmpty, "\(name)")
        #expect(try await fixtures.store.load(key: "first") == before)
    }

    @Test("An unsigned token (alg none) is refused before any key is fetched")
    func unsigned() async throws {
        let fixtures = try await LogoutFixtures.make()
        let payload = Base64URL.encode(try TestIssuer.json(LogoutFixtures.claims()).utf8)
        let token = Base64URL.encode(#"{"alg":"none","typ":"logout+jwt"}"#.utf8) + "." + payload + "."
        let answer = await fixtures.logout.respond(to: LogoutFixtures.post(token))
        #expect(answer.status == 400)
        #expect(await fixtures.transport.requests.isEmpty)
        #expect(try await fixtures.endedKeys().isEmpty)
    }

    @Test(
        "A token signed by a key the provider does not publish is refused; its keys are not fetched again within a minute"
    )
    func unknownKey() async throws {
        let fixtures = try await LogoutFixtures.make()
        let stranger = try await TestIssuer.make(keyID: "key-2")
        await fixtures.transport.enqueue(.json(200, fixtures.issuer.keySet()))
        let token = try await stranger.sign(LogoutFixtures.claims(), header: ["alg": "ES256", "kid": "key-2"])
        let answer = await fixtures.logout.respond(to: LogoutFixtures.post(token))
        #expect(answer.status == 400)
        #expect(await fixtures.transport.requests.count == 1, "the set just fetched is not fetched again at once")
        #expect(try await fixtures.endedKeys().isEmpty)
    }

    @Test("A request that is not a form POST with one logout_token is refused")
    func malformedRequests() async throws {
        let fixtures = try await LogoutFixtures.make()
        let token = try await fixtures.token()
        let get = await fixtures.logout.respond(to: .init(method: "GET", contentType: nil, body: Data()))
        #expect(get.status == 405)
        #expect(get.headerFields["Allow"] == "POST")
        let json = await fixtures.logout.respond(
            to: .init(contentType: "application/json", body: Data(#"{"logout_token":"\#(token)"}"#.utf8)))
        #expect(json.status == 400)
        let twice = await fixtures.logout.respond(
            to: .init(
                contentType: "application/x-www-form-urlencoded; charset=utf-8",
                body: Data("logout_token=\(token)&logout_token=\(token)".utf8)))
        #expect(twice.status == 400)
        let none = await fixtures.logout.respond(
            to: .init(contentType: "application/x-www-form-urlencoded", body: Data("token=x".utf8)))
        #expect(none.status == 400)
        #expect(try await fixtures.endedKeys().isEmpty)
    }

    @Test("A provider that publishes no keys cannot be configured")
    func needsKeys() async throws {
        #expect(throws: BearerError.self) {
            _ = try BackChannelLogout(
                server: Fixtures.server, clientIDs: ["client-123"], store: InMemorySessionStore(),
                verifier: PlatformSignatureVerifier(), transport: RecordingTransport())
        }
    }

    @Test("The file store ends the named session under its lock file, and keeps its tokens")
    func fileStore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-logout-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileSessionStore(directory: directory)
        try await store.save(LogoutFixtures.state(subject: "user-1", sid: "sid-1"), key: "first")
        try await store.save(LogoutFixtures.state(subject: "user-1", sid: "sid-2"), key: "second")
        let issuer = try await TestIssuer.make()
        let logout = try BackChannelLogout(
            server: LogoutFixtures.server, clientIDs: [Fixtures.publicClient.id], store: store,
            verifier: PlatformSignatureVerifier(),
            transport: RecordingTransport(replies: [.json(200, issuer.keySet())]),
            clock: LogoutFixtures.clock)
        let token = try await issuer.sign(LogoutFixtures.claims(), header: ["alg": "ES256", "kid": "key-1"])
        #expect(try await logout.receive(token) == .ended(sessions: 1))
        #expect(try await logout.receive(token) == .replayed)
        #expect(try await store.load(key: "first")?.signInRequiredError?.code == .loginRequired)
        #expect(try await store.load(key: "first")?.refreshToken != nil)
        #expect(try await store.load(key: "second")?.signInRequiredError == nil)
    }
}
