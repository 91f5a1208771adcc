import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(CommandLine) @_spi(Migration) @testable import BearerCore

/// The span in which a refresh's outcome exists only in memory is reported to the configured
/// ``RefreshCriticalSection``: entered before the request is sent, left once the outcome is saved
/// or the refresh failed, and never for a run that does not refresh.
@Suite("AuthSession: a refresh's critical section spans its request and its save")
struct AuthSessionCriticalSectionTests {
    let clock = TestClock(Fixtures.epoch)

    /// A stale session in a file store of its own, with `replies` for its refreshes.
    private func makeSession(
        _ replies: [RecordingTransport.Reply],
        store: (any SessionStore)? = nil
    ) async throws -> (AuthSession, CriticalSectionRecorder, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-section-\(UUID())")
        let files = FileSessionStore(directory: folder)
        let store = store ?? files
        try await store.save(
            AuthState(
                server: Fixtures.server,
                client: Fixtures.publicClient,
                accessToken: AccessToken("at-1"),
                accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(-1),
                refreshToken: RefreshToken("rt-1"),
                grantedScopes: ["email"]
            ),
            key: "main"
        )
        let recorder = CriticalSectionRecorder { try? files.loadWithoutSuspending(key: "main") }
        var configuration = AuthSession.Configuration()
        configuration.refreshCriticalSection = recorder
        let session = try #require(
            try await AuthSession.restore(
                key: "main", from: store, transport: recorder.recording(RecordingTransport(replies: replies)),
                clock: clock.wallClock, configuration: configuration))
        return (session, recorder, folder)
    }

    private static let rotated = RecordingTransport.Reply.json(
        200, #"{"access_token":"at-2","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-2"}"#)

    @Test("Entered before the refresh is sent, left once the rotated refresh token is in the file")
    func refreshSaved() async throws {
        let (session, recorder, folder) = try await makeSession([Self.rotated])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await session.validAccessToken() == AccessToken("at-2"))
        #expect(recorder.all == [.enter, .send("token"), .leave(stored: "rt-2", signInRequired: false)])
    }

    @Test("A session that needs no refresh never enters")
    func noRefreshNoSection() async throws {
        let (session, recorder, folder) = try await makeSession([Self.rotated])
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await session.validAccessToken()
        _ = try await session.validAccessToken()
        #expect(recorder.all.filter { $0 == .enter }.count == 1, "the second call finds the token fresh")
    }

    @Test("A refresh that fails leaves, with the file as it was")
    func refreshFailed() async throws {
        let (session, recorder, folder) = try await makeSession([.json(503, #"{"error":"temporarily_unavailable"}"#)])
        defer { try? FileManager.default.removeItem(at: folder) }
        await #expect(throws: (any Error).self) { try await session.validAccessToken() }
        #expect(recorder.all == [.enter, .send("token"), .leave(stored: "rt-1", signInRequired: false)])
    }

    @Test("invalid_grant leaves once the session is saved as needing a sign-in")
    func invalidGrantSaved() async throws {
        let (session, recorder, folder) = try await makeSession([.json(400, #"{"error":"invalid_grant"}"#)])
        defer { try? FileManager.default.removeItem(at: folder) }
        await #expect(throws: (any Error).self) { try await session.validAccessToken() }
        #expect(recorder.all == [.enter, .send("token"), .leave(stored: "rt-1", signInRequired: true)])
    }

    @Test("A save that fails leaves too")
    func saveFailed() async throws {
        let store = FaultyStore()
        let (session, recorder, folder) = try await makeSession([Self.rotated], store: store)
        defer { try? FileManager.default.removeItem(at: folder) }
        await store.setFailsSaves(true)
        await #expect(throws: BearerError.self) { try await session.validAccessToken() }
        // The store is in memory: the recorder's file holds nothing.
        #expect(recorder.all == [.enter, .send("token"), .leave(stored: nil, signInRequired: false)])
        #expect(await store.saveCount == 2, "the refreshed session's save was attempted")
    }

    @Test("200 concurrent callers share one refresh, and one section")
    func concurrentCallersOneSection() async throws {
        let (session, recorder, folder) = try await makeSession([Self.rotated])
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<200 { group.addTask { _ = try await session.validAccessToken() } }
            try await group.waitForAll()
        }
        #expect(recorder.all == [.enter, .send("token"), .leave(stored: "rt-2", signInRequired: false)])
    }
}
