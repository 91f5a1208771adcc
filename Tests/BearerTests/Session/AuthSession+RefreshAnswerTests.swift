import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a session does with refresh answers that used to lose it: a grant past its
/// `refresh_token_expires_in`, an ID token for another user, an answer too deep to save.
@Suite("AuthSession: refresh answers never lose the session")
struct AuthSessionRefreshAnswerTests {
    let clock = TestClock(Fixtures.epoch)

    private func makeSession(
        _ state: AuthState,
        replies: [RecordingTransport.Reply],
        store: any SessionStore = InMemorySessionStore()
    ) async throws -> (AuthSession, RecordingTransport) {
        let transport = RecordingTransport(replies: replies)
        let session = try await AuthSession.save(
            state, to: store, key: "main", transport: transport, clock: clock.wallClock)
        return (session, transport)
    }

    private func expiredState(request: AuthorizationRequest) throws -> AuthState {
        AuthState(
            server: Fixtures.server,
            client: Fixtures.publicClient,
            accessToken: AccessToken("at-1"),
            accessTokenExpiresAt: Fixtures.epoch,
            refreshToken: RefreshToken("rt-1"),
            idToken: try IDToken(Fixtures.idToken(for: request)),
            grantedScopes: ["openid", "email"],
            user: AuthState.User(subject: "user-1", email: "user@example.com")
        )
    }

    private func api() -> URLRequest { URLRequest(url: Fixtures.url("https://api.example.com/items")) }

    @Test("Past refresh_token_expires_in, the session asks for a sign-in without sending a refresh")
    func expiredGrantSendsNothing() async throws {
        var state = try expiredState(request: try Fixtures.request())
        state.refreshTokenExpiresAt = Fixtures.epoch
        let store = InMemorySessionStore()
        let (session, transport) = try await makeSession(state, replies: [], store: store)
        let error = await #expect(throws: BearerError.self) { try await session.authorize(api()) }
        #expect(error?.signInRequired == true)
        #expect(await transport.requests.isEmpty)
        #expect(try await store.load(key: "main")?.signInRequired == true, "the mark is saved")
        await #expect(throws: BearerError.self) { try await session.authorize(api()) }
        #expect(await transport.requests.isEmpty)
    }

    @Test("A refreshed ID token for another user: new tokens saved, sign-in asked for, disconnect revokes them")
    func otherUserIsSavedThenRevoked() async throws {
        let request = try Fixtures.request()
        let other = Fixtures.idToken(for: request, subject: "someone-else")
        let store = InMemorySessionStore()
        let (session, transport) = try await makeSession(
            try expiredState(request: request),
            replies: [
                .json(
                    200, #"{"access_token":"at-2","token_type":"Bearer","refresh_token":"rt-2","id_token":"\#(other)"}"#
                ),
                .json(200, "{}"),
            ],
            store: store
        )
        let error = await #expect(throws: BearerError.self) { try await session.authorize(api()) }
        #expect(error?.signInRequired == true)
        let saved = try #require(try await store.load(key: "main"))
        #expect(saved.refreshToken?.value == "rt-2")
        #expect(saved.signInRequiredError?.code == .loginRequired)
        _ = try await session.disconnect()
        let revocation = try #require(await transport.requests(toPathEnding: "/revoke").first)
        #expect(revocation.formBody["token"] == "rt-2")
    }

    @Test("An answer with a field nested 510 levels deep is saved once, and the next call needs no save")
    func deepAnswerIsSavedOnce() async throws {
        let deep = String(repeating: "[", count: 510) + "1" + String(repeating: "]", count: 510)
        let store = FaultyStore()
        let (session, transport) = try await makeSession(
            try expiredState(request: try Fixtures.request()),
            replies: [
                .json(
                    200,
                    #"{"access_token":"at-2","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-2","deep":\#(deep)}"#
                )
            ],
            store: store
        )
        let before = await store.saveCount
        let first = try await session.authorize(api())
        let second = try await session.authorize(api())
        #expect(first.value(forHTTPHeaderField: "Authorization") == "Bearer at-2")
        #expect(second.value(forHTTPHeaderField: "Authorization") == "Bearer at-2")
        #expect(await store.saveCount == before + 1)
        #expect(try await store.load(key: "main")?.refreshToken?.value == "rt-2")
        #expect(await transport.requests.count == 1)
    }
}
