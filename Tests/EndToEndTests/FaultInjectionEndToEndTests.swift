import Bearer
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `bearer token` against a token endpoint that misbehaves on command (Server/fault_server.py):
/// each fault gives a typed error and exit code, leaves the session file byte for byte as it was
/// (or marked sign-in required after invalid_grant), and the next call after the fault
/// clears succeeds. SIGKILL at random moments never leaves an unreadable file or a lost token.
@Suite("End to end: fault injection", .serialized, .enabled(if: TestServer.isConfigured, TestServer.skipReason))
struct FaultInjectionEndToEndTests {
    struct Fault: Sendable, CustomStringConvertible {
        let mode: String
        let exitCode: Int32
        let message: String
        var description: String { mode }
    }

    static let faults = [
        Fault(mode: "http500", exitCode: 69, message: "HTTP 500"),
        Fault(mode: "http503", exitCode: 69, message: "HTTP 503"),
        Fault(mode: "timeout", exitCode: 69, message: "No response"),
        Fault(mode: "reset", exitCode: 69, message: "No response"),
        Fault(mode: "html200", exitCode: 1, message: "text/html"),
        Fault(mode: "truncated", exitCode: 1, message: "not a JSON object"),
        Fault(mode: "error200", exitCode: 1, message: "invalid_request"),
        Fault(mode: "invalid_client", exitCode: 1, message: "invalid_client"),
        Fault(mode: "slow_down", exitCode: 69, message: "slow_down"),
        Fault(mode: "huge", exitCode: 1, message: "far more than an OAuth response"),
        Fault(mode: "huge-unsized", exitCode: 1, message: "far more than an OAuth response"),
        Fault(mode: "trickle", exitCode: 69, message: "within 2 s: its answer did not finish"),
        Fault(mode: "invalid_grant", exitCode: 77, message: "bearer login"),
    ]

    @Test("Each fault: typed error, session file unchanged, and the next call succeeds", arguments: faults)
    func fault(_ fault: Fault) async throws {
        let server = try await FaultServer()
        let tool = BearerTool(timeout: 2)
        defer {
            tool.cleanUp()
            server.stop()
        }
        let state = try await server.expiredSession()
        try await tool.store.save(state, key: "default")
        let file = try tool.store.fileURL(for: "default")
        let before = try Data(contentsOf: file)

        try await server.inject(fault.mode)
        let failed = try await tool.run(["token"])
        #expect(failed.status == fault.exitCode, "\(fault.mode): \(failed.stderr)")
        #expect(failed.stderr.contains(fault.message), "\(fault.mode): \(failed.stderr)")
        #expect(failed.stdout.isEmpty, "no stale token is printed")
        #expect(!failed.stderr.contains(state.refreshToken?.value ?? "-"))

        try await server.inject("ok")
        if fault.mode == "invalid_grant" {
            let marked = try #require(try await tool.store.load(key: "default"))
            #expect(marked.signInRequiredError?.code == .invalidGrant)
            #expect(marked.refreshToken == state.refreshToken)
            #expect(try await tool.run(["token"]).status == 77, "the mark is sticky")
        } else {
            #expect(try Data(contentsOf: file) == before, "\(fault.mode) left the session file byte for byte as it was")
            let next = try await tool.run(["token"])
            #expect(next.status == 0, "\(fault.mode): \(next.stderr)")
            #expect(try await server.isValid(try await tool.store.load(key: "default")?.refreshToken))
        }
    }

    @Test("SIGKILL at random moments during refresh never leaves an unreadable file or a lost refresh token")
    func killDuringRefresh() async throws {
        let server = try await FaultServer()
        let tool = BearerTool()
        defer {
            tool.cleanUp()
            server.stop()
        }
        try await tool.store.save(try await server.expiredSession(), key: "default")
        try await server.inject("delay")
        var generator = SystemRandomNumberGenerator()
        for round in 0..<25 {
            var state = try #require(try await tool.store.load(key: "default"), "round \(round): the file is readable")
            #expect(
                try await server.isValid(state.refreshToken), "round \(round): the stored refresh token still works")
            state.accessTokenExpiresAt = Date(timeIntervalSince1970: 0)
            try await tool.store.save(state, key: "default")
            let running = try tool.start(["token"])
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...600, using: &generator)))
            running.kill()
            _ = await running.finish()
        }
        try await server.inject("ok")
        #expect(try await tool.run(["token"]).status == 0)
    }

    @Test("A lock file removed while a slow refresh is out: a second bearer token waits, one refresh, grant kept")
    func lockFileRemovedDuringRefresh() async throws {
        let server = try await FaultServer()
        let tool = BearerTool()
        defer {
            tool.cleanUp()
            server.stop()
        }
        try await tool.store.save(try await server.expiredSession(), key: "default")
        try await server.inject("hold")
        let first = try tool.start(["token"])
        let patience = ContinuousClock.now + .seconds(20)
        while try await server.stats().held == 0, ContinuousClock.now < patience {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try await server.stats().held == 1, "the first refresh is out, held by the server")
        let lockFile = tool.configDirectory.appendingPathComponent(".default.lock")
        try FileManager.default.removeItem(at: lockFile)
        let second = try tool.start(["token"])
        while !FileManager.default.fileExists(atPath: lockFile.path), ContinuousClock.now < patience {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(FileManager.default.fileExists(atPath: lockFile.path), "the second process made a new lock file")
        try await Task.sleep(for: .seconds(2))
        #expect(try await server.stats().tokenRequests == 1, "the second process sent nothing while the first waited")
        try await server.release()
        let (a, b) = (await first.finish(), await second.finish())
        #expect(a.status == 0, "\(a.stderr)")
        #expect(b.status == 0, "\(b.stderr)")
        #expect(!a.stdout.isEmpty && a.stdout == b.stdout, "both print the one refreshed token")
        #expect(try await server.stats().tokenRequests == 1, "the refresh token was sent once")
        #expect(try await server.isValid(try await tool.store.load(key: "default")?.refreshToken))
    }

    @Test("SIGKILL at random moments during migrate leaves the profile absent or complete, and the legacy file intact")
    func killDuringMigration() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("BearerMigrationTests/Fixtures")
        let legacy = fixtures.appendingPathComponent("gtmappauth-google.archive")
        let original = try Data(contentsOf: legacy)
        let expected = try await {
            let probe = BearerTool()
            defer { probe.cleanUp() }
            #expect(try await probe.run(["migrate", "--from", "gtmappauth", legacy.path]).status == 0)
            return try await probe.store.load(key: "default")
        }()
        var generator = SystemRandomNumberGenerator()
        for round in 0..<25 {
            let running = try tool.start(["migrate", "--from", "gtmappauth", legacy.path, "--force"])
            try await Task.sleep(for: .microseconds(Int.random(in: 0...40_000, using: &generator)))
            running.kill()
            _ = await running.finish()
            let stored = try await tool.store.load(key: "default")
            #expect(stored == nil || stored == expected, "round \(round): the profile is absent or complete")
            #expect(try Data(contentsOf: legacy) == original)
            let leftovers = ((try? FileManager.default.contentsOfDirectory(atPath: tool.configDirectory.path)) ?? [])
                .filter { $0.hasSuffix(".tmp") }
            for leftover in leftovers {
                try? FileManager.default.removeItem(at: tool.configDirectory.appendingPathComponent(leftover))
            }
        }
    }
}
