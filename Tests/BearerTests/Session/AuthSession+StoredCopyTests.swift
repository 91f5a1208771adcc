import Bearer
import BearerTestSupport
import Foundation
import Testing

/// A session takes the copy another process saved of the same user, as the run reads it under
/// the store's lock.
@Suite("A stored copy another process saved")
struct StoredCopyTests {
    /// A session migrated without an ID token: no subject, no e-mail.
    static let migrated = AuthState(
        server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at-1"),
        accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(3600), refreshToken: RefreshToken("rt-1"),
        grantedScopes: ["openid", "email"])

    @Test("A session migrated without a subject takes its copy, which another process's refresh named")
    func unprovenSessionTakesNamedCopy() async throws {
        let store = InMemorySessionStore()
        let transport = RecordingTransport(replies: [])
        let clock = TestClock(Fixtures.epoch)
        let session = try await AuthSession.save(
            Self.migrated, to: store, key: "main", transport: transport, clock: clock.wallClock)
        var refreshedElsewhere = Self.migrated
        refreshedElsewhere.accessToken = AccessToken("at-2")
        refreshedElsewhere.accessTokenExpiresAt = Fixtures.epoch.addingTimeInterval(7200)
        refreshedElsewhere.user = AuthState.User(subject: "user-1")
        try await store.save(refreshedElsewhere, key: "main")
        clock.advance(by: 3600)
        #expect(try await session.validAccessToken() == AccessToken("at-2"))
        #expect(await session.state.user?.subject == "user-1")
        #expect(await transport.requests.isEmpty, "no refresh: the stored copy's token is fresh")
    }

    @Test("A session migrated without a subject does not take another grant's copy that names a user")
    func unprovenSessionRefusesOtherGrant() async throws {
        let store = InMemorySessionStore()
        let transport = RecordingTransport(replies: [
            .text(200, contentType: "text/plain", ""), .text(200, contentType: "text/plain", ""),
        ])
        let clock = TestClock(Fixtures.epoch)
        let session = try await AuthSession.save(
            Self.migrated, to: store, key: "main", transport: transport, clock: clock.wallClock)
        let otherAccount = AuthState(
            server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at-other"),
            accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(7200), refreshToken: RefreshToken("rt-other"),
            grantedScopes: ["openid", "email"], user: AuthState.User(subject: "user-2"))
        try await store.save(otherAccount, key: "main")
        clock.advance(by: 3600)
        let error = await #expect(throws: BearerError.self) { try await session.validAccessToken() }
        #expect(error?.kind == .userMismatch)
        #expect(try await session.disconnect() == .revoked)
        #expect(await transport.requests.map { $0.formBody["token"] } == ["rt-1", "at-1"], "its own tokens only")
        #expect(try await store.load(key: "main") == otherAccount, "the other account's session is kept")
    }
}
