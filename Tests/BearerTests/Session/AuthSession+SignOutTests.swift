import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Bridge) @_spi(CommandLine) @_spi(Migration) @testable import BearerCore

/// Signing out and disconnecting only remove a file, so they set no space aside and work on a
/// full disk; a locked run that may save still does.
@Suite("Sign-out and disconnect reserve no space")
struct SignOutSpaceTests {
    /// A file store that records the reserved temporary files present when a session is removed.
    final class ObservingStore: SessionStore, @unchecked Sendable {
        let inner: FileSessionStore
        let directory: URL
        let seen = Recorder<[String]>()

        init(directory: URL) {
            self.directory = directory
            inner = FileSessionStore(directory: directory)
        }

        func reservedFiles() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
                $0.hasSuffix(".tmp")
            }
        }

        func load(key: String) async throws -> AuthState? { try await inner.load(key: key) }
        func keys() async throws -> [String] { try await inner.keys() }
        func withExclusiveAccess<Result: Sendable>(
            to key: String, _ body: @Sendable (_ access: Access) async throws -> Result
        ) async throws -> Result {
            try await inner.withExclusiveAccess(to: key) { access in try await body(Access(store: self, base: access)) }
        }

        /// The file store's access, recording the reserved files present at each removal.
        struct Access: ExclusiveSessionAccess {
            let store: ObservingStore
            let base: FileSessionStore.Access

            func load() async throws -> AuthState? { try await base.load() }
            func write(_ state: AuthState) async throws { try await base.write(state) }
            func prepareToSave() async throws { try await base.prepareToSave() }
            func remove() async throws {
                store.seen.record(store.reservedFiles())
                try await base.remove()
            }
        }
    }

    @Test("signOut and disconnect remove the session with no reserved file; a run that may save has one")
    func noReservation() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-signout-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = ObservingStore(directory: directory)
        let state = AuthState(
            server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at"),
            refreshToken: RefreshToken("rt"))
        let transport = RecordingTransport(replies: [.json(200, "{}"), .json(200, "{}")])
        let first = try await AuthSession.save(state, to: store, key: "a", transport: transport)
        try await first.signOut()
        let second = try await AuthSession.save(state, to: store, key: "b", transport: transport)
        _ = try await second.disconnect()
        #expect(store.seen.all == [[], []])
        let reservedWhileSaving = try await store.withExclusiveAccess(to: "c") { access in
            try await access.prepareToSave()
            return store.reservedFiles()
        }
        #expect(reservedWhileSaving.count == 1)
    }
}

/// Signing out and disconnecting remove only what is this session's to remove: a stored copy that
/// belongs to another account, or that cannot be read, is kept.
@Suite("Sign-out and disconnect keep what is not theirs")
struct SignOutStoredCopyTests {
    let base = AuthSessionTests()

    /// Another account's session, as a sign-in in another process saves it under the same key.
    private static let otherAccount = AuthState(
        server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at-other"),
        refreshToken: RefreshToken("rt-other"), grantedScopes: ["email"],
        user: AuthState.User(subject: "user-2", email: "other@example.com"))

    @Test("signOut keeps another account's session saved under the same key since")
    func signOutKeepsOtherAccount() async throws {
        let (session, transport, store) = try await base.makeSession()
        try await store.save(Self.otherAccount, key: "main")
        try await session.signOut()
        #expect(try await store.load(key: "main") == Self.otherAccount)
        #expect(await transport.requests.isEmpty)
        #expect(await !session.canAuthorize, "this session is signed out all the same")
    }

    @Test("disconnect of a session without a subject revokes and removes its own copy, which a refresh elsewhere named")
    func disconnectTakesOwnCopyWithSubject() async throws {
        let store = InMemorySessionStore()
        let transport = RecordingTransport(replies: [
            .text(200, contentType: "text/plain", ""), .text(200, contentType: "text/plain", ""),
        ])
        let migrated = AuthState(
            server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at-1"),
            accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(3600), refreshToken: RefreshToken("rt-1"),
            grantedScopes: ["openid", "email"])
        let session = try await AuthSession.save(
            migrated, to: store, key: "main", transport: transport, clock: .fixed(Fixtures.epoch))
        var refreshedElsewhere = migrated
        refreshedElsewhere.accessToken = AccessToken("at-2")
        refreshedElsewhere.user = AuthState.User(subject: "user-1")
        try await store.save(refreshedElsewhere, key: "main")
        #expect(try await session.disconnect() == .revoked)
        #expect(await transport.requests.map { $0.formBody["token"] } == ["rt-1", "at-2"], "the newest tokens")
        #expect(try await store.load(key: "main") == nil)
    }

    @Test("disconnect revokes this session's own grant and keeps another account's stored session")
    func disconnectKeepsOtherAccount() async throws {
        let (session, transport, store) = try await base.makeSession(replies: [
            .text(200, contentType: "text/plain", ""), .text(200, contentType: "text/plain", ""),
        ])
        try await store.save(Self.otherAccount, key: "main")
        #expect(try await session.disconnect() == .revoked)
        let revoked = await transport.requests.map { $0.formBody["token"] }
        #expect(revoked == ["rt-1", "at-1"], "this session's tokens, not the other account's")
        #expect(try await store.load(key: "main") == Self.otherAccount)
    }

    @Test("A session signed out already, or marked sign-in required, keeps another account's stored session")
    func otherPhasesKeepOtherAccount() async throws {
        let (signedOut, _, store) = try await base.makeSession()
        try await store.save(Self.otherAccount, key: "main")
        try await signedOut.signOut()
        try await signedOut.signOut()
        #expect(try await signedOut.disconnect() == .notRevoked, "it holds no token any more")
        #expect(try await store.load(key: "main") == Self.otherAccount)

        let (marked, transport, markedStore) = try await base.makeSession(replies: [
            .json(400, #"{"error":"invalid_grant"}"#), .text(200, contentType: "text/plain", ""),
            .text(200, contentType: "text/plain", ""),
        ])
        base.clock.advance(by: 3600)
        await #expect(throws: BearerError.self) { try await marked.validAccessToken() }
        try await markedStore.save(Self.otherAccount, key: "main")
        #expect(try await marked.disconnect() == .revoked)
        let revoked = await transport.requests.dropFirst().map { $0.formBody["token"] }
        #expect(revoked == ["rt-1", "at-1"])
        #expect(try await markedStore.load(key: "main") == Self.otherAccount)
    }

    @Test("With the stored copy gone, signOut succeeds and disconnect revokes the session's own grant")
    func copyGone() async throws {
        let (session, transport, store) = try await base.makeSession(replies: [
            .text(200, contentType: "text/plain", ""), .text(200, contentType: "text/plain", ""),
        ])
        try await store.remove(key: "main")
        #expect(try await session.disconnect() == .revoked)
        #expect(await transport.requests.map { $0.formBody["token"] } == ["rt-1", "at-1"])
        let (other, _, otherStore) = try await base.makeSession()
        try await otherStore.remove(key: "main")
        try await other.signOut()
        #expect(await !other.canAuthorize)
    }

    @Test("A stored copy that cannot be read is neither revoked nor removed, and the session stays signed in")
    func unreadableCopyIsKept() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-signout-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileSessionStore(directory: directory)
        let unreadable = Data(#"{"version":2,"written_by":"a newer release"}"#.utf8)
        for remove in [{ (session: AuthSession) in try await session.signOut() }, { _ = try await $0.disconnect() }] {
            let (session, transport, _) = try await base.makeSession(replies: [], store: store)
            try unreadable.write(to: try store.fileURL(for: "main"))
            let error = await #expect(throws: BearerError.self) { try await remove(session) }
            #expect(error?.kind == .unreadableSession)
            #expect(try Data(contentsOf: try store.fileURL(for: "main")) == unreadable)
            #expect(await transport.requests.isEmpty)
            #expect(await session.canAuthorize)
        }
    }
}
