import Bearer
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C, SIGTERM and SIGHUP sent to `bearer token` at random moments of its refreshes against
/// django-oauth-toolkit, which rotates refresh tokens and revokes the whole grant when a retired
/// one is used again: a signal that arrives while a refresh is out or unsaved is held until the
/// new session is saved, and then ends the tool as that signal, so the session is never lost.
///
/// Stock django-oauth-toolkit cannot be made slow, so each round waits for the space the tool
/// reserves when it takes the session's lock (a `.tmp` file beside the session), just before it
/// sends the refresh, and sends the signal a random 0 to 60 ms later: before, during or after the
/// refresh.
@Suite(
    "End to end: signals during a refresh", .serialized, .enabled(if: TestServer.isConfigured, TestServer.skipReason)
)
struct SignalEndToEndTests {
    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    private static let names: [Int32: String] = [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP"]

    @Test("A signal during a refresh ends the tool as that signal, after the rotated token is saved")
    func signalsDuringRefresh() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        try await tool.signIn()
        var generator = SystemRandomNumberGenerator()
        var held = 0
        for round in 0..<30 {
            let signal = Self.signals[round % Self.signals.count]
            let state = try await tool.expireSession()
            let running = try tool.start(["token"])
            try await tool.waitForReservation(running)
            try await Task.sleep(for: .microseconds(Int.random(in: 0...60_000, using: &generator)))
            // Every fourth round a second Ctrl-C follows, as an impatient user sends.
            let sent = round % 4 == 3 ? [signal, SIGINT] : [signal]
            for (index, number) in sent.enumerated() {
                if index > 0 { try await Task.sleep(for: .milliseconds(2)) }
                running.send(number)
            }
            let result = await running.finish()

            let after = try #require(try await tool.store.load(key: "default"), "round \(round): the file is readable")
            // The first signal the tool received, by the name its message gives.
            let heldName = result.stderr.split(separator: "\n").first {
                $0.contains("received; stopping once the refresh under way is saved")
            }?.split(separator: " ").dropFirst().first
            if let ended = result.signal {
                #expect(sent.contains(ended), "round \(round): ended by \(ended), which was not sent")
            } else {
                #expect(result.status == 0, "round \(round): exit \(result.status): \(result.stderr)")
                #expect(!result.output.isEmpty, "round \(round): a token was printed")
            }
            if let heldName {
                held += 1
                // Two signals 2 ms apart may reach the tool's threads in either order on a busy
                // machine; the tool ends by the one it received first.
                #expect(
                    result.signal.flatMap { Self.names[$0] } == String(heldName),
                    "round \(round): a held signal ends the tool as itself")
                #expect(after.refreshToken != state.refreshToken, "round \(round): the rotated token was saved")
            }
            guard try await tool.storedGrantStillRefreshes(after, round: round) else { return }
        }
        #expect(held > 0, "no signal arrived during a refresh in 30 rounds, so none was held")
        let last = try await tool.run(["token"])
        #expect(last.status == 0, "\(last.stderr)")
    }
}
