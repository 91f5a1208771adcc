import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(CommandLine) @_spi(Migration) @testable import BearerCore

/// A session takes the copy another process saved of the same user, as the run reads it under
/// the store's lock.
@Suite("A stored copy another process saved")
struct StoredCopyTests {
    /// The state machine's tests, whose sessions and answers these cases use.
    typealias MachineTests = AuthSessionStateMachineTests

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

    /// (case, the session in memory, the stored copy, whether the copy is taken as the session's)
    static let ownCopyCases: [(String, AuthState, AuthState, Bool)] = [
        (
            "same subject, refresh token rotated", MachineTests.state(),
            MachineTests.state(access: "at-9", refresh: "rt-9"), true
        ),
        (
            "other subject, even with the same refresh token", MachineTests.state(),
            MachineTests.state(access: "at-9", subject: "user-2"), false
        ),
        (
            "a copy that proves no user", MachineTests.state(),
            MachineTests.state(access: "at-9", refresh: "rt-9", subject: ""),
            false
        ),
        (
            "a copy that proves no user, even of the same grant", MachineTests.state(),
            MachineTests.state(access: "at-9", subject: ""), false
        ),
        (
            "an unproven session, its grant refreshed elsewhere with an ID token", MachineTests.state(subject: ""),
            MachineTests.state(access: "at-9"), true
        ),
        (
            "an unproven session, another grant that names a user", MachineTests.state(subject: ""),
            MachineTests.state(access: "at-9", refresh: "rt-9"), false
        ),
        (
            "an unproven session with an e-mail, a copy of the same e-mail",
            MachineTests.state(subject: "", email: "a@x"),
            MachineTests.state(access: "at-9", refresh: "rt-9", email: "a@x"), true
        ),
        (
            "an unproven session with an e-mail, a copy of another", MachineTests.state(subject: "", email: "a@x"),
            MachineTests.state(access: "at-9", refresh: "rt-9", email: "b@x"), false
        ),
        (
            "neither names a user", MachineTests.state(subject: ""),
            MachineTests.state(access: "at-9", refresh: "rt-9", subject: ""), true
        ),
        (
            "neither has a subject, their e-mails differ", MachineTests.state(subject: "", email: "a@x"),
            MachineTests.state(access: "at-9", refresh: "rt-9", subject: "", email: "b@x"), false
        ),
        (
            "an unproven session with an e-mail, a copy that names a user but no e-mail",
            MachineTests.state(subject: "", email: "a@x"), MachineTests.state(access: "at-9", refresh: "rt-9"), false
        ),
        (
            "an unproven session, an empty refresh token on both sides",
            MachineTests.state(refresh: "", subject: ""), MachineTests.state(access: "at-9", refresh: ""), false
        ),
        (
            "an unproven session without a refresh token, a copy that names a user",
            MachineTests.state(subject: "").removingRefreshToken,
            MachineTests.state(access: "at-9").removingRefreshToken, false
        ),
        (
            "neither has a subject, only the copy an e-mail", MachineTests.state(subject: ""),
            MachineTests.state(access: "at-9", refresh: "rt-9", subject: "", email: "b@x"), false
        ),
        (
            "an unproven session with an e-mail, a copy that names no one",
            MachineTests.state(subject: "", email: "a@x"),
            MachineTests.state(access: "at-9", refresh: "rt-9", subject: ""), false
        ),
        (
            "empty e-mails are unknown ones", MachineTests.state(subject: "", email: ""),
            MachineTests.state(access: "at-9", refresh: "rt-9", email: ""), false
        ),
        (
            "same subject at another server", MachineTests.state(), MachineTests.state(access: "at-9").atAnotherServer,
            false
        ),
        (
            "same subject and grant, another client", MachineTests.state(),
            MachineTests.state(access: "at-9").ofAnotherClient, false
        ),
    ]

    @Test("A stored copy is matched against the session in memory", arguments: ownCopyCases.map(\.0))
    func storedCopyMatchesTheSessionInMemory(name: String) throws {
        let (_, inMemory, stored, isOwn) = try #require(Self.ownCopyCases.first { $0.0 == name })
        var machine = AuthSession.StateMachine(stored: inMemory)
        let action = machine.storedCopyLoaded(stored)
        #expect(action == (isOwn ? .adopted : MachineTests.mismatch))
        #expect(machine.state.accessToken?.value == (isOwn ? "at-9" : "at-1"))
    }

    @Test("A session signed out or marked takes a new sign-in's copy only of its own server and client")
    func signedOutTakesOnlyItsServersCopy() {
        for copy in [
            MachineTests.state(access: "at-9").atAnotherServer, MachineTests.state(access: "at-9").ofAnotherClient,
        ] {
            var signedOut = AuthSession.StateMachine(stored: MachineTests.state())
            signedOut.signedOut()
            #expect(signedOut.storedCopyLoaded(copy) == .unchanged)
            var marked = AuthSession.StateMachine(
                stored: MachineTests.state().markingSignInRequired(MachineTests.invalidGrant))
            #expect(marked.storedCopyLoaded(copy) == .unchanged)
        }
        var signedOut = AuthSession.StateMachine(stored: MachineTests.state())
        signedOut.signedOut()
        #expect(signedOut.storedCopyLoaded(MachineTests.state(access: "at-9")) == .adopted)
        var other = AuthSession.StateMachine(stored: MachineTests.state())
        other.signedOut()
        guard case .adoptedOtherAccount = other.storedCopyLoaded(MachineTests.state(access: "at-9", subject: "user-2"))
        else {
            Issue.record("another account's copy was taken silently")
            return
        }
        #expect(other.state.user?.subject == "user-2")
    }

    @Test("A session that showed one account and meets another's sign-in says so once, and its state names the new one")
    func accountChangeIsVisible() async throws {
        let store = InMemorySessionStore()
        let transport = RecordingTransport(replies: [])
        let clock = TestClock(Fixtures.epoch)
        let alice = MachineTests.state(
            access: "at-alice", refresh: "rt-alice", subject: "alice", email: "alice@example.com")
        let session = try await AuthSession.save(
            alice, to: store, key: "main", transport: transport, clock: clock.wallClock)
        try await session.signOut()
        let bob = MachineTests.state(access: "at-bob", refresh: "rt-bob", subject: "bob", email: "bob@example.com")
        try await store.save(bob, key: "main")
        let changes = await session.stateChanges()
        let error = await #expect(throws: BearerError.self) { try await session.validAccessToken() }
        #expect(error?.kind == .userMismatch)
        #expect(await session.state.user?.email == "bob@example.com", "the state names the account it now serves")
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next()?.user?.subject == "bob")
        #expect(try await session.validAccessToken() == AccessToken("at-bob"), "once told, the caller gets bob's token")
        #expect(await transport.requests.isEmpty)
    }
}

extension AuthState {
    fileprivate var removingRefreshToken: AuthState {
        var state = self
        state.refreshToken = nil
        return state
    }

    fileprivate var atAnotherServer: AuthState {
        var state = self
        state.server.issuer = Fixtures.url("https://other.example.com")
        return state
    }

    fileprivate var ofAnotherClient: AuthState {
        var state = self
        state.client.id = "another-client"
        return state
    }
}
