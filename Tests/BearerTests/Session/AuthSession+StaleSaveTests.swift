import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Bridge) @_spi(CommandLine) @_spi(Migration) @testable import BearerCore

/// A refresh whose save failed leaves its state unsaved; the next run saves it only while the
/// stored copy is still the one it was made from. Another process's sign-out or sign-in since
/// owns the key: the unsaved grant is revoked, never written over what that process did.
@Suite("A state whose save failed never overwrites a newer stored copy")
struct StaleSaveTests {
    static let user1 = AuthState(
        server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at-1"),
        accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(3600), refreshToken: RefreshToken("rt-1"),
        grantedScopes: ["email"], user: AuthState.User(subject: "user-1"))
    static let otherAccount = AuthState(
        server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at-other"),
        accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(7200), refreshToken: RefreshToken("rt-other"),
        grantedScopes: ["email"], user: AuthState.User(subject: "user-2"))
    static let rotated =
        #"{"access_token":"at-2","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-2"}"#

    /// A session whose refresh succeeded and whose save failed: it holds `at-2`/`rt-2` unsaved, and
    /// the store still holds `user1`.
    private static func unsavedSession(
        extraReplies: [RecordingTransport.Reply] = []
    ) async throws -> (AuthSession, FaultyStore, RecordingTransport, TestClock) {
        let store = FaultyStore()
        let clock = TestClock(Fixtures.epoch)
        let transport = RecordingTransport(replies: [.json(200, rotated)] + extraReplies)
        let session = try await AuthSession.save(
            user1, to: store, key: "main", transport: transport, clock: clock.wallClock)
        clock.advance(by: 3600)
        await store.setFailsSaves(true)
        let error = await #expect(throws: BearerError.self) { try await session.validAccessToken() }
        #expect(error?.kind == .storageFailure)
        #expect(await session.state.refreshToken == RefreshToken("rt-2"), "the rotated token is kept in memory")
        await store.setFailsSaves(false)
        return (session, store, transport, clock)
    }

    @Test("The unsaved state is saved on the next run while the stored copy is unchanged")
    func savedWhenUnchanged() async throws {
        let (session, store, transport, _) = try await Self.unsavedSession()
        #expect(try await session.validAccessToken() == AccessToken("at-2"))
        #expect(try await store.load(key: "main")?.refreshToken == RefreshToken("rt-2"))
        #expect(await transport.requests.count == 1, "no second refresh")
    }

    @Test("Another account signed in since: its session is kept, and the unsaved grant revoked")
    func otherAccountKept() async throws {
        let (session, store, transport, _) = try await Self.unsavedSession(extraReplies: [
            .text(200, contentType: "text/plain", ""), .text(200, contentType: "text/plain", ""),
        ])
        try await store.save(Self.otherAccount, key: "main")
        let error = await #expect(throws: BearerError.self) { try await session.validAccessToken() }
        #expect(error?.kind == .userMismatch)
        #expect(try await store.load(key: "main") == Self.otherAccount, "the other account's sign-in is kept")
        let revoked = await transport.requests(toPathEnding: "/revoke").map { $0.formBody["token"] }
        #expect(revoked == ["rt-2", "at-2"], "the orphaned grant is revoked")
        #expect(await session.state.refreshToken == nil)
    }

    @Test("A sign-out elsewhere since stays a sign-out, and the unsaved grant is revoked")
    func signOutElsewhereKept() async throws {
        let (session, store, transport, _) = try await Self.unsavedSession(extraReplies: [
            .text(200, contentType: "text/plain", ""), .text(200, contentType: "text/plain", ""),
        ])
        try await store.remove(key: "main")
        let error = await #expect(throws: BearerError.self) { try await session.validAccessToken() }
        #expect(error?.kind == .signInRequired)
        #expect(try await store.load(key: "main") == nil, "the sign-out is not undone")
        let revoked = await transport.requests(toPathEnding: "/revoke").map { $0.formBody["token"] }
        #expect(revoked == ["rt-2", "at-2"])
        #expect(await session.canAuthorize == false)
    }

    @Test("The same account refreshed elsewhere since: its copy is taken, and nothing of the grant revoked")
    func sameAccountAdopted() async throws {
        let (session, store, transport, _) = try await Self.unsavedSession()
        var elsewhere = Self.user1
        elsewhere.accessToken = AccessToken("at-9")
        elsewhere.accessTokenExpiresAt = Fixtures.epoch.addingTimeInterval(7200)
        try await store.save(elsewhere, key: "main")
        #expect(try await session.validAccessToken() == AccessToken("at-9"))
        #expect(try await store.load(key: "main") == elsewhere)
        #expect(await transport.requests(toPathEnding: "/revoke").isEmpty)
    }

    @Test("A copy another process marked after spending the refresh token this one rotated is overwritten")
    func markedWithSpentTokenIsOverwritten() async throws {
        let (session, store, transport, _) = try await Self.unsavedSession()
        let marked = Self.user1.markingSignInRequired(OAuthError(code: .invalidGrant, statusCode: 400))
        try await store.save(marked, key: "main")
        #expect(try await session.validAccessToken() == AccessToken("at-2"), "the live grant is used")
        #expect(try await store.load(key: "main")?.refreshToken == RefreshToken("rt-2"), "and saved over the mark")
        #expect(await transport.requests(toPathEnding: "/revoke").isEmpty)
    }

    @Test("A new sign-in whose save failed is saved over the same account's copy stored since")
    func newSignInKeptOverSameAccount() async throws {
        let store = FaultyStore()
        let transport = RecordingTransport(replies: [])
        let session = try await AuthSession.save(
            Self.user1, to: store, key: "main", transport: transport, clock: .fixed(Fixtures.epoch))
        var signedInAgain = Self.user1
        signedInAgain.accessToken = AccessToken("at-new")
        signedInAgain.refreshToken = RefreshToken("rt-new")
        await store.setFailsSaves(true)
        await #expect(throws: BearerError.self) { try await session.replace(with: signedInAgain) }
        await store.setFailsSaves(false)
        var refreshedElsewhere = Self.user1
        refreshedElsewhere.accessToken = AccessToken("at-9")
        try await store.save(refreshedElsewhere, key: "main")
        #expect(try await session.validAccessToken() == AccessToken("at-new"))
        #expect(try await store.load(key: "main")?.refreshToken == RefreshToken("rt-new"), "the new grant is kept")
    }

    @Test("A save through the access is refused when the stored copy is not the one named")
    func accessRefusesStaleSave() async throws {
        let store = InMemorySessionStore()
        try await store.save(Self.otherAccount, key: "main")
        let error = await #expect(throws: BearerError.self) {
            try await store.withExclusiveAccess(to: "main") { access in
                try await access.save(Self.user1, replacing: nil)
            }
        }
        #expect(error?.kind == .storedCopyChanged)
        #expect(try await store.load(key: "main") == Self.otherAccount)
    }
}
