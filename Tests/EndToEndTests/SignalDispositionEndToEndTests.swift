import Bearer
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The tool keeps the signal dispositions it was started with, through its refreshes: `nohup
/// bearer token` ignores SIGHUP, a script's background job ignores SIGINT, and both finish
/// whenever the signal comes. SIGQUIT (Ctrl-\) during a refresh is held like Ctrl-C and never
/// answered with the runtime's backtrace, which prints memory that can hold tokens.
///
/// Against django-oauth-toolkit with rotation and reuse protection; each round sends the signal a
/// random 0 to 60 ms after the tool reserved the space of its save, just before its refresh
/// (see SignalEndToEndTests).
@Suite(
    "End to end: ignored signals stay ignored, and SIGQUIT shows no memory",
    .serialized, .enabled(if: TestServer.isConfigured, TestServer.skipReason)
)
struct SignalDispositionEndToEndTests {
    @Test("nohup bearer token finishes whenever SIGHUP comes, refresh or not")
    func nohupHolds() async throws {
        try await rounds(signal: SIGHUP, launcher: ["/usr/bin/env", "nohup"]) { result, round in
            #expect(result.signal == nil && result.status == 0, "round \(round): \(result.status): \(result.stderr)")
            #expect(!result.output.isEmpty, "round \(round): a token was printed")
        }
    }

    @Test("A background job of a script, with SIGINT ignored, finishes whenever SIGINT comes")
    func ignoredInterruptHolds() async throws {
        let background = ["/bin/sh", "-c", "trap '' INT; exec \"$@\"", "sh"]
        try await rounds(signal: SIGINT, launcher: background) { result, round in
            #expect(result.signal == nil && result.status == 0, "round \(round): \(result.status): \(result.stderr)")
            #expect(!result.output.isEmpty, "round \(round): a token was printed")
        }
    }

    @Test("SIGQUIT during a refresh ends the tool as SIGQUIT after the save, with no token on stderr")
    func quitShowsNoMemory() async throws {
        // No core files from the tools this test ends; children inherit the limit.
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(Int32(RLIMIT_CORE.rawValue), &noCore)
        var ended = 0
        // Sent within 15 ms of the reservation, so that most rounds catch the tool mid-refresh.
        try await rounds(signal: SIGQUIT, launcher: nil, latestDelay: 15_000) { result, round in
            if result.signal == SIGQUIT { ended += 1 }
            #expect(result.signal == SIGQUIT || result.status == 0, "round \(round): \(result.status)")
            #expect(!result.stderr.contains("Registers") && !result.stderr.contains("Backtrace"), "round \(round)")
        }
        #expect(ended > 0, "no SIGQUIT reached a running tool in any round")
    }

    /// Logs in, then runs `bearer token` on an expired session `count` times, sending `signal` up
    /// to `latestDelay` microseconds after the tool reserved its save, during or after its refresh;
    /// `check` judges each result. After each round the stored
    /// refresh token must still refresh, and no token of the session may appear on stderr.
    private func rounds(
        signal: Int32,
        launcher: [String]?,
        count: Int = 12,
        latestDelay: Int = 60_000,
        check: (ChildProcess.Result, Int) -> Void
    ) async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        try await tool.signIn()
        var generator = SystemRandomNumberGenerator()
        for round in 0..<count {
            let state = try await tool.expireSession()
            let running = try launcher.map { try tool.start(["token"], launchedBy: $0) } ?? tool.start(["token"])
            try await tool.waitForReservation(running)
            try await Task.sleep(for: .microseconds(Int.random(in: 0...latestDelay, using: &generator)))
            running.send(signal)
            let result = await running.finish()
            check(result, round)

            let after = try #require(try await tool.store.load(key: "default"), "round \(round): readable")
            for secret in [state.refreshToken?.value, after.refreshToken?.value, after.accessToken?.value] {
                if let secret { #expect(!result.stderr.contains(secret), "round \(round): a token on stderr") }
            }
            guard try await tool.storedGrantStillRefreshes(after, round: round) else { return }
        }
    }
}
