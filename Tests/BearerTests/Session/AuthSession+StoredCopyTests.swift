import Bearer
import BearerTestSupport
import Foundation
import Testing

/// A session takes the copy another process saved of the same user, as the run reads it under
/// the store's lock.
@Suite("A stored copy another process saved")
struct StoredCopyTests {
    @Test("A session migrated without a subject takes its copy that another process's refresh named")
    func unprovenSessionTakesNamedCopy() async throws {
        let store = InMemorySessionStore()
        let transport = RecordingTransport(replies: [])
        let clock = TestClock(Fixtures.epoch)
        let migrated = AuthState(
            server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at-1"),
            accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(3600), refreshToken: RefreshToken("rt-1"),
            grantedScopes: ["openid", "email"])
        let session = try await AuthSession.save(
            migrated, to: store, key: "main", transport: transport, clock: clock.wallClock)
        var refreshedElsewhere = migrated
        refreshedElsewhere.accessToken = AccessToken("at-2")
        refreshedElsewhere.accessTokenExpiresAt = Fixtures.epoch.addingTimeInterval(7200)
        refreshedElsewhere.refreshToken = RefreshToken("rt-2")
        refreshedElsewhere.user = AuthState.User(subject: "user-1")
        try await store.save(refreshedElsewhere, key: "main")
        clock.advance(by: 3600)
        #expect(try await session.validAccessToken() == AccessToken("at-2"))
        #expect(await session.state.user?.subject == "user-1")
        #expect(await transport.requests.isEmpty, "no refresh: the stored copy's token is fresh")
    }
}
