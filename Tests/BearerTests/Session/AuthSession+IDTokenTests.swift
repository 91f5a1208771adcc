import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore

/// `freshIDToken()`: an ID token valid now for a backend, renewed through the session's one
/// coalesced refresh even when the access token is still fresh.
@Suite("AuthSession: a fresh ID token for a backend")
struct AuthSessionIDTokenTests {
    let clock = TestClock(Fixtures.epoch)

    /// A session whose access token lives 2 hours and whose ID token expires after 1 hour.
    private func makeSession(
        replies: [RecordingTransport.Reply],
        delay: Duration? = nil
    ) async throws -> (AuthSession, RecordingTransport, AuthorizationRequest) {
        let request = try Fixtures.request()
        let state = AuthState(
            server: Fixtures.server,
            client: Fixtures.publicClient,
            accessToken: AccessToken("at-1"),
            accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(7200),
            refreshToken: RefreshToken("rt-1"),
            idToken: try IDToken(Fixtures.idToken(for: request)),
            grantedScopes: ["openid", "email"],
            user: AuthState.User(subject: "user-1", email: "user@example.com")
        )
        let transport = RecordingTransport(replies: replies, responseDelay: delay)
        let session = try await AuthSession.save(
            state, to: InMemorySessionStore(), key: "k", transport: transport, clock: clock.wallClock)
        return (session, transport, request)
    }

    private func refreshReply(idToken: String?) -> RecordingTransport.Reply {
        let idField = idToken.map { #","id_token":"\#($0)""# } ?? ""
        return .json(200, #"{"access_token":"at-2","token_type":"Bearer","expires_in":7200\#(idField)}"#)
    }

    @Test("A valid ID token is returned without a request")
    func validIDTokenNeedsNoRequest() async throws {
        let (session, transport, _) = try await makeSession(replies: [])
        let idToken = try await session.freshIDToken()
        #expect(idToken.claims.subject == "user-1")
        #expect(await transport.requests.isEmpty)
    }

    @Test("An expired ID token is refreshed though the access token is fresh, once for all callers, and saved")
    func expiredIDTokenRefreshesOnce() async throws {
        let request = try Fixtures.request()
        let renewed = Fixtures.idToken(for: request, issuedAt: Fixtures.epoch.addingTimeInterval(3600))
        let (session, transport, _) = try await makeSession(
            replies: [refreshReply(idToken: renewed)], delay: .milliseconds(20))
        clock.advance(by: 3600)
        let tokens = try await withThrowingTaskGroup(of: IDToken.self) { group in
            for _ in 0..<20 { group.addTask { try await session.freshIDToken() } }
            return try await group.reduce(into: [IDToken]()) { $0.append($1) }
        }
        #expect(Set(tokens.map(\.value)) == [renewed])
        #expect(await transport.requests.count == 1)
        #expect(await session.state.accessToken?.value == "at-2")
    }

    @Test("A refresh answer without an ID token drops the expired one and says so, then sends nothing more")
    func answerWithoutIDTokenIsMissingIDToken() async throws {
        let (session, transport, _) = try await makeSession(replies: [refreshReply(idToken: nil)])
        clock.advance(by: 3600)
        let error = await #expect(throws: BearerError.self) { try await session.freshIDToken() }
        #expect(error?.kind == .missingIDToken)
        #expect(await session.state.idToken == nil)
        #expect(await session.state.accessToken?.value == "at-2")
        #expect(await transport.requests.count == 1)
        let again = await #expect(throws: BearerError.self) { try await session.freshIDToken() }
        #expect(again?.kind == .missingIDToken)
        #expect(await transport.requests.count == 1, "with no ID token left, nothing is sent")
    }
}
