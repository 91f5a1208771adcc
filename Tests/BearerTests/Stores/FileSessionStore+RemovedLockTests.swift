import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Bridge) @_spi(Migration) @testable import BearerCore

/// A lock file removed while its holder's refresh is out lets nobody in: the holder also locks
/// the session file, which a newcomer waits on after taking a new lock file.
@Suite("FileSessionStore: a lock file removed under its holder")
struct FileSessionStoreRemovedLockTests {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("bearer-removed-lock-\(UUID().uuidString)", isDirectory: true)

    private func state(_ token: String) -> AuthState {
        AuthState(
            server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at"),
            accessTokenExpiresAt: Fixtures.epoch, refreshToken: RefreshToken(token))
    }

    private var lockPath: String { directory.appendingPathComponent(".default.lock").path }

    @Test("A newcomer after the lock file's removal waits for the holder's save, then reads it")
    func newcomerWaitsForSave() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileSessionStore(directory: directory)
        try await store.save(state("rt-1"), key: "default")
        let seen = Recorded()
        let newcomer = try await store.withExclusiveAccess(to: "default") { access in
            let before = try await access.load()
            try await access.prepareToSave()
            try FileManager.default.removeItem(atPath: lockPath)
            let newcomer = Task {
                try await FileSessionStore(directory: directory).withExclusiveAccess(to: "default") { access in
                    seen.record(try await access.load()?.refreshToken?.value)
                    try await access.prepareToSave()
                }
            }
            // The newcomer creates a new lock file and takes it, then waits on the session file.
            let patience = ContinuousClock.now + .seconds(10)
            while !FileManager.default.fileExists(atPath: lockPath), ContinuousClock.now < patience {
                try await Task.sleep(for: .milliseconds(10))
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(seen.values.isEmpty, "the newcomer waits while the refresh is out")
            try await access.save(state("rt-2"), replacing: before)
            return newcomer
        }
        try await newcomer.value
        #expect(seen.values == ["rt-2"], "the newcomer reads what the holder saved")
        #expect(try await store.load(key: "default")?.refreshToken?.value == "rt-2")
    }

    @Test("Two sessions refresh once between them when the lock file is removed while the refresh is out")
    func oneRefreshAcrossRemoval() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = TestClock(Fixtures.epoch)
        try await FileSessionStore(directory: directory).save(state("rt"), key: "default")
        let transport = RecordingTransport(
            replies: [AuthSessionTests.refreshReply], responseDelay: .milliseconds(600))
        let first = try #require(
            try await AuthSession.restore(
                key: "default", from: FileSessionStore(directory: directory), transport: transport,
                clock: clock.wallClock))
        let second = try #require(
            try await AuthSession.restore(
                key: "default", from: FileSessionStore(directory: directory), transport: transport,
                clock: clock.wallClock))
        let refreshing = Task { try await first.validAccessToken().value }
        let patience = ContinuousClock.now + .seconds(10)
        while await transport.requests.isEmpty, ContinuousClock.now < patience {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(await transport.requests.count == 1, "the first refresh is out")
        try FileManager.default.removeItem(atPath: lockPath)
        let token = try await second.validAccessToken().value
        #expect(try await refreshing.value == "at-2")
        #expect(token == "at-2", "the second session uses the refreshed token")
        #expect(await transport.requests.count == 1, "the refresh token was sent once")
        #expect(
            try await FileSessionStore(directory: directory).load(key: "default")?.refreshToken?.value == "rt-2")
    }

    @Test("Removing the session under the lock keeps a newcomer out until the holder is done")
    func removalKeepsNewcomerOut() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileSessionStore(directory: directory)
        try await store.save(state("rt-1"), key: "default")
        let seen = Recorded()
        let newcomer = try await store.withExclusiveAccess(to: "default") { access in
            try FileManager.default.removeItem(atPath: lockPath)
            let newcomer = Task {
                try await FileSessionStore(directory: directory).withExclusiveAccess(to: "default") { access in
                    seen.record(try await access.load()?.refreshToken?.value ?? "none")
                }
            }
            let patience = ContinuousClock.now + .seconds(10)
            while !FileManager.default.fileExists(atPath: lockPath), ContinuousClock.now < patience {
                try await Task.sleep(for: .milliseconds(10))
            }
            try await Task.sleep(for: .milliseconds(200))
            try await access.remove()
            try await Task.sleep(for: .milliseconds(300))
            #expect(seen.values.isEmpty, "the newcomer still waits after the file is removed")
            try await access.write(state("rt-3"))
            try await Task.sleep(for: .milliseconds(100))
            #expect(seen.values.isEmpty, "and after a new one is written")
            return newcomer
        }
        try await newcomer.value
        #expect(seen.values == ["rt-3"])
    }
}

/// Values recorded from another task.
private final class Recorded: @unchecked Sendable {
    // Unchecked: `stored` is touched only while holding `lock`.
    private let lock = NSLock()
    private var stored: [String?] = []

    var values: [String?] { lock.withLock { stored } }

    func record(_ value: String?) {
        lock.withLock { stored.append(value) }
    }
}
