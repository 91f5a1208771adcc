import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Bridge) @_spi(CommandLine) @_spi(Migration) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An empty access token authorizes nothing: it counts as no token, so the session refreshes or
/// asks for a sign-in, and `Bearer ` alone is never sent.
@Suite("An empty access token never authorizes")
struct EmptyAccessTokenTests {
    private func emptyTokenState(refreshToken: RefreshToken?) -> AuthState {
        AuthState(
            server: Fixtures.server,
            client: Fixtures.publicClient,
            accessToken: AccessToken(""),
            accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(3600),
            refreshToken: refreshToken
        )
    }

    @Test("An empty token counts as none, in a new state, a changed one and a stored one")
    func emptyTokenIsAbsent() throws {
        var state = emptyTokenState(refreshToken: RefreshToken("r"))
        #expect(state.accessToken == nil)
        #expect(state.needsRefresh(at: Fixtures.epoch))
        state.accessToken = AccessToken("a")
        state.accessToken = AccessToken("")
        #expect(state.accessToken == nil)
        var object = try JSONDecoder().decode([String: JSONValue].self, from: state.encoded())
        object["accessToken"] = ""
        #expect(try AuthState(encoded: JSONEncoder().encode(object)).accessToken == nil)
    }

    @Test("Stamping an empty token removes the header instead of sending Bearer alone")
    func stampingEmptyTokenSetsNothing() {
        var request = URLRequest(url: Fixtures.url("https://api.example.com"))
        request.setBearerToken(AccessToken("old"))
        request.setBearerToken(AccessToken(""))
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test("A session with an empty token refreshes before stamping")
    func sessionRefreshesEmptyToken() async throws {
        let store = InMemorySessionStore()
        let transport = RecordingTransport(replies: [
            .json(200, #"{"access_token":"at-2","token_type":"Bearer","expires_in":3600}"#)
        ])
        let session = try await AuthSession.save(
            emptyTokenState(refreshToken: RefreshToken("r")), to: store, key: "k", transport: transport,
            clock: .fixed(Fixtures.epoch))
        let request = try await session.authorize(URLRequest(url: Fixtures.url("https://api.example.com")))
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer at-2")
        #expect(await transport.requests.count == 1)
    }

    @Test("A session with an empty token and no refresh token asks for a sign-in and stamps nothing")
    func sessionWithoutRefreshTokenFails() async throws {
        let transport = RecordingTransport()
        let session = try await AuthSession.save(
            emptyTokenState(refreshToken: nil), to: InMemorySessionStore(), key: "k", transport: transport,
            clock: .fixed(Fixtures.epoch))
        #expect(await !session.canAuthorize)
        let error = await #expect(throws: BearerError.self) {
            try await session.authorize(URLRequest(url: Fixtures.url("https://api.example.com")))
        }
        #expect(error?.signInRequired == true)
        #expect(await transport.requests.isEmpty)
    }
}
