import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Testing) @_spi(Migration) @testable import BearerCore

/// An agent that records the page it was shown and answers with `redirect` (given the request),
/// or throws `error`.
final class LogoutPageAgent: AuthorizationAgent, @unchecked Sendable {
    let shown = Recorder<URL>()
    private let answer: @Sendable (AuthorizationRequest) throws -> URL

    init(_ answer: @escaping @Sendable (AuthorizationRequest) throws -> URL) {
        self.answer = answer
    }

    func present(_ request: AuthorizationRequest) async throws -> URL {
        shown.record(request.url)
        return try answer(request)
    }
}

/// RP-Initiated Logout on the fake transport: the local session goes first, then the provider's page.
@Suite("Signing out at the provider: the local session first, then the provider's end-session page")
struct ProviderSignOutTests {
    static let endSession = Fixtures.url("https://auth.example.com/logout?ui=compact")
    static let afterLogout = Fixtures.url("com.example.app:/signed-out")

    static func signedIn(endSession: URL? = endSession) async throws
        -> (session: AuthSession, store: InMemorySessionStore, transport: RecordingTransport)
    {
        var server = Fixtures.server
        server.endSessionEndpoint = endSession
        let idToken = try IDToken(try Self.idToken)
        let state = AuthState(
            server: server, client: Fixtures.publicClient, accessToken: AccessToken("at-1"),
            refreshToken: RefreshToken("rt-1"), idToken: idToken, user: AuthState.User(subject: "user-1"))
        let store = InMemorySessionStore()
        let transport = RecordingTransport(replies: [.json(200, "{}"), .json(200, "{}")])
        let session = try await AuthSession.save(state, to: store, key: "default", transport: transport)
        return (session, store, transport)
    }

    static var idToken: String {
        get throws {
            Fixtures.idToken(
                for: try AuthorizationRequest(server: Fixtures.server, client: Fixtures.publicClient, scopes: []))
        }
    }

    static func query(_ url: URL?) -> [String: String] {
        let pairs = URLComponents(url: url ?? afterLogout, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return Dictionary(pairs.map { ($0.name, $0.value ?? "") }) { first, _ in first }
    }

    @Test("The grant is revoked and the session removed, then the page opens with the hint, client, redirect and state")
    func endsBoth() async throws {
        let (session, store, transport) = try await Self.signedIn()
        let agent = LogoutPageAgent { request in
            Fixtures.url(Self.afterLogout.absoluteString + "?state=" + request.state)
        }
        let outcome = try await session.disconnect(
            endingProviderSessionWith: agent, postLogoutRedirectURI: Self.afterLogout)
        guard case .ended = outcome.providerSession else {
            Issue.record("not ended: \(outcome.providerSession)")
            return
        }
        #expect(outcome.revocation == .revoked)
        #expect(try await store.load(key: "default") == nil)
        #expect(await transport.requests(toPathEnding: "/revoke").count == 2, "both tokens revoked before the page")
        let page = try #require(agent.shown.all.first)
        #expect(page.host == "auth.example.com" && page.path == "/logout")
        let query = Self.query(page)
        #expect(query["ui"] == "compact", "the endpoint's own query is kept")
        #expect(query["id_token_hint"] == (try Self.idToken))
        #expect(query["client_id"] == Fixtures.publicClient.id)
        #expect(query["post_logout_redirect_uri"] == Self.afterLogout.absoluteString)
        #expect(query["state"]?.count == 43)
    }

    @Test(
        "A closed page, a wrong state or the provider's error leave no tokens, and say the provider was not confirmed")
    func notConfirmed() async throws {
        let answers: [@Sendable (AuthorizationRequest) throws -> URL] = [
            { _ in throw CancellationError() },
            { _ in Fixtures.url(Self.afterLogout.absoluteString + "?state=another") },
            { _ in Fixtures.url(Self.afterLogout.absoluteString + "?error=access_denied") },
        ]
        for answer in answers {
            let (session, store, transport) = try await Self.signedIn()
            let outcome = try await session.disconnect(
                endingProviderSessionWith: LogoutPageAgent(answer), postLogoutRedirectURI: Self.afterLogout)
            guard case .notConfirmed = outcome.providerSession else {
                Issue.record("expected notConfirmed, got \(outcome.providerSession)")
                continue
            }
            #expect(try await store.load(key: "default") == nil)
            #expect(await transport.requests(toPathEnding: "/revoke").count == 2)
            #expect(await session.state.refreshToken == nil)
        }
    }

    @Test("A provider without an end-session endpoint gets the local sign-out, and the answer says so")
    func notOffered() async throws {
        let (session, store, _) = try await Self.signedIn(endSession: nil)
        let agent = LogoutPageAgent { _ in Self.afterLogout }
        let outcome = try await session.disconnect(endingProviderSessionWith: agent)
        guard case .notOffered = outcome.providerSession else {
            Issue.record("expected notOffered, got \(outcome.providerSession)")
            return
        }
        #expect(agent.shown.all.isEmpty)
        #expect(try await store.load(key: "default") == nil)
    }

    @Test("Without postLogoutRedirectURI the client's redirect URI is sent; discovery reads end_session_endpoint")
    func defaults() async throws {
        let (session, _, _) = try await Self.signedIn()
        let agent = LogoutPageAgent { request in
            Fixtures.url(request.redirectURI.absoluteString + "?state=" + request.state)
        }
        let outcome = try await session.disconnect(endingProviderSessionWith: agent)
        guard case .ended = outcome.providerSession else {
            Issue.record("not ended: \(outcome.providerSession)")
            return
        }
        #expect(
            Self.query(agent.shown.all.first)["post_logout_redirect_uri"]
                == Fixtures.publicClient.redirectURI?.absoluteString)
        let metadata = Data(
            (#"{"issuer":"https://auth.example.com","authorization_endpoint":"https://auth.example.com/a","#
                + #""token_endpoint":"https://auth.example.com/t","end_session_endpoint":"https://auth.example.com/end"}"#)
                .utf8)
        let server = try AuthorizationServer(
            metadata: metadata, expectedIssuer: Fixtures.url("https://auth.example.com"))
        #expect(server.endSessionEndpoint?.absoluteString == "https://auth.example.com/end")
        let plain = Data(
            (#"{"issuer":"https://auth.example.com","authorization_endpoint":"https://auth.example.com/a","#
                + #""token_endpoint":"https://auth.example.com/t","end_session_endpoint":"http://auth.example.com/end"}"#)
                .utf8)
        #expect(
            try AuthorizationServer(metadata: plain, expectedIssuer: Fixtures.url("https://auth.example.com"))
                .endSessionEndpoint == nil, "an http end-session endpoint is left out")
    }
}
