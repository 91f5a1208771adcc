import Bearer
import BearerTestSupport
import Foundation
import Testing

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
        func save(_ state: AuthState, key: String) async throws { try await inner.save(state, key: key) }
        func keys() async throws -> [String] { try await inner.keys() }
        func remove(key: String) async throws {
            seen.record(reservedFiles())
            try await inner.remove(key: key)
        }
        func withExclusiveAccess<Result: Sendable>(
            to key: String, _ body: @Sendable () async throws -> Result
        ) async throws -> Result {
            try await inner.withExclusiveAccess(to: key, body)
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
        let reservedWhileSaving = try await store.withExclusiveAccess(to: "c") { store.reservedFiles() }
        #expect(reservedWhileSaving.count == 1)
    }
}
