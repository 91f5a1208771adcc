import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Once an answer carries tokens they are kept before any other field is judged; a grant the
/// library obtained and will not keep is revoked.
@Suite("Keep the grant first: a failing field never costs an issued token")
struct KeepTheGrantTests {
    let clock = TestClock(Fixtures.epoch)

    static let request: AuthorizationRequest = {
        guard let request = try? Fixtures.request() else { fatalError("bad test request") }
        return request
    }()

    /// Refresh answers with a rotated refresh token and one field that fails a strict check.
    static let tolerated: [String] = [
        #""id_token":"not-a-jwt""#,
        #""id_token":42"#,
        #""id_token":"\#(TestTokens.jwt(["iss": .string(Fixtures.issuer), "aud": .string("client-123")]))""#,
        #""expires_in":-1"#,
        #""expires_in":"soon""#,
        #""expires_in":1e400"#,
        #""expires_in":1."#,
        #""scope":42"#,
        #""refresh_token_expires_in":-5"#,
    ]

    /// Refresh answers whose access token is refused, with a rotated refresh token.
    static let refusedAccessTokens: [String] = [
        #""access_token":"at-2\r\nX-Injected: 1","token_type":"Bearer""#,
        #""access_token":"at 2","token_type":"Bearer""#,
        #""access_token":"at-2","token_type":"mac""#,
        #""access_token":"at-2""#,
        #""access_token":"","token_type":"Bearer""#,
    ]

    private func expiredSession(
        replies: [RecordingTransport.Reply]
    ) async throws -> (AuthSession, RecordingTransport, InMemorySessionStore) {
        let state = AuthState(
            server: Fixtures.server,
            client: Fixtures.publicClient,
            accessToken: AccessToken("at-1"),
            accessTokenExpiresAt: Fixtures.epoch,
            refreshToken: RefreshToken("rt-1"),
            grantedScopes: ["email"]
        )
        let store = InMemorySessionStore()
        let transport = RecordingTransport(replies: replies)
        let session = try await AuthSession.save(
            state, to: store, key: "main", transport: transport, clock: clock.wallClock)
        return (session, transport, store)
    }

    private var api: URLRequest { URLRequest(url: Fixtures.url("https://api.example.com/items")) }

    @Test(
        "A refresh answer with one unreadable field keeps its rotated refresh token and is used", arguments: tolerated)
    func toleratedField(field: String) async throws {
        let body = #"{"access_token":"at-2","token_type":"Bearer","refresh_token":"rt-2",\#(field)}"#
        let (session, _, store) = try await expiredSession(replies: [.json(200, body)])
        let authorized = try await session.authorize(api)
        #expect(authorized.value(forHTTPHeaderField: "Authorization") == "Bearer at-2")
        #expect(try await store.load(key: "main")?.refreshToken?.value == "rt-2")
    }

    @Test(
        "A refresh answer whose access token is refused keeps the rotated refresh token and stamps nothing",
        arguments: refusedAccessTokens)
    func refusedAccessToken(fields: String) async throws {
        let body = #"{\#(fields),"refresh_token":"rt-2"}"#
        let (session, transport, store) = try await expiredSession(replies: [.json(200, body)])
        let error = await #expect(throws: (any Error).self) { try await session.authorize(api) }
        #expect(error is BearerError)
        #expect(!"\(String(describing: error))".contains("at-2"))
        let saved = try #require(try await store.load(key: "main"))
        #expect(saved.refreshToken?.value == "rt-2")
        #expect(saved.accessToken == nil)
        #expect(await transport.requests.count == 1, "one refresh, never a loop")
    }

    @Test(
        "An access token outside RFC 6750's b64token is refused when read, from an answer or a file",
        arguments: ["a\r\nb", "a\nb", "a b", "a\"b", "a,b", "ä", "=abc", "a=b", "a\u{0}b", "a\u{202E}b"])
    func b64token(token: String) throws {
        let body = try JSONEncoder().encode(["access_token": token, "token_type": "Bearer"])
        let answer = try JSONDecoder().decode([String: JSONValue].self, from: body)
        let error = #expect(throws: BearerError.self) { try TokenResponse(json: answer) }
        #expect(error?.kind == .invalidResponse)
        let state = AuthState(server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken(token))
        #expect(state.accessToken == nil)
        let reread = try AuthState(encoded: try JSONSerialization.data(withJSONObject: patched(state, token)))
        #expect(reread.accessToken == nil)
    }

    @Test("Tokens of RFC 6750's b64token characters are read", arguments: ["a", "ya29.a0-_~+/", "YWJj==", "x.y.z"])
    func validB64token(token: String) throws {
        let response = try TokenResponse(json: ["access_token": .string(token), "token_type": .string("Bearer")])
        #expect(response.accessToken?.value == token)
    }

    private func patched(_ state: AuthState, _ token: String) throws -> [String: Any] {
        var object = try #require(try JSONSerialization.jsonObject(with: state.encoded()) as? [String: Any])
        object["accessToken"] = token
        return object
    }

    @Test(
        "A code exchange whose ID token fails revokes the grant before reporting it",
        arguments: [
            "not-a-jwt",
            Fixtures.idToken(for: request, extra: ["nonce": .string("another")]),
            Fixtures.idToken(for: request, extra: ["aud": .string("another-client")]),
            TestTokens.jwt(["iss": .string(Fixtures.issuer), "aud": .string("client-123")]),
        ])
    func failedIDTokenRevokes(idToken: String) async throws {
        let request = Self.request
        let transport = RecordingTransport(replies: [
            .json(
                200, #"{"access_token":"at-1","token_type":"Bearer","refresh_token":"rt-1","id_token":"\#(idToken)"}"#),
            .json(200, "{}"), .json(200, "{}"),
        ])
        let redirect = Fixtures.redirect(for: request, query: "state=\(request.state)&code=c")
        let error = await #expect(throws: BearerError.self) {
            _ = try await AuthorizationServerClient(transport: transport, clock: .fixed(Fixtures.epoch)).exchange(
                try AuthorizationResponse(redirect: redirect, for: request), for: request)
        }
        #expect(error?.kind == .invalidIDToken)
        let revoked = await transport.requests(toPathEnding: "/revoke").map { $0.formBody["token"] }
        #expect(revoked == ["rt-1", "at-1"])
    }

    @Test("A one-call sign-in whose ID token is unreadable saves nothing and revokes the grant")
    func signInWithBadIDTokenRevokes() async throws {
        let store = InMemorySessionStore()
        let transport = RecordingTransport(replies: [
            .json(200, #"{"access_token":"at-1","token_type":"Bearer","refresh_token":"rt-1","id_token":"x.y"}"#),
            .json(200, "{}"), .json(200, "{}"),
        ])
        await #expect(throws: BearerError.self) {
            _ = try await AuthSession.signIn(
                to: Fixtures.server, as: Fixtures.publicClient, scopes: ["openid"], using: ScriptedAgent.approving(),
                store: store, transport: transport)
        }
        #expect(try await store.load(key: "default") == nil)
        #expect(await transport.requests(toPathEnding: "/revoke").count == 2)
    }
}
