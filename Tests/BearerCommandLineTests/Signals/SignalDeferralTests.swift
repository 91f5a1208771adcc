import Bearer
import BearerCommandLine
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The signal plumbing itself, each case in a process of its own (an exit test), since it
/// installs process-wide handlers and ends the process.
@Suite("SignalDeferral: real signals held during a section, and default ones for children")
struct SignalDeferralTests {
    /// A deferral that says nothing, so the exit tests' output stays clean.
    static func deferral(bound: Duration = .seconds(600)) -> SignalDeferral {
        SignalDeferral(bound: bound, console: Console(out: { _ in }, error: { _ in }))
    }

    /// Waits up to ten seconds for `condition`; a hang guard, not a measurement.
    static func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<10_000 {
            if condition() { return true }
            usleep(1000)
        }
        return condition()
    }

    @Test("A signal sent during a section does not end the process")
    func heldSignalDoesNotEnd() async {
        await #expect(processExitsWith: .exitCode(42)) {
            let deferral = SignalDeferralTests.deferral()
            deferral.enter()
            kill(getpid(), SIGINT)
            guard SignalDeferralTests.eventually({ deferral.heldSignal == SIGINT }) else { exit(1) }
            exit(42)
        }
    }

    @Test(
        "Leaving the section ends the process by the signal held, as its default action would",
        arguments: [SIGINT, SIGTERM, SIGHUP])
    func leavingEndsBySignal(_ number: Int32) async {
        await #expect(processExitsWith: .signal(number)) { [number] in
            let deferral = SignalDeferralTests.deferral()
            deferral.enter()
            kill(getpid(), number)
            guard SignalDeferralTests.eventually({ deferral.heldSignal == number }) else { exit(1) }
            deferral.leave()
            exit(2)
        }
    }

    @Test("An ignored signal (nohup's SIGHUP, a background job's SIGINT) stays ignored during and after a section")
    func ignoredSignalStaysIgnored() async {
        await #expect(processExitsWith: .exitCode(42)) {
            signal(SIGHUP, SIG_IGN)
            let deferral = SignalDeferralTests.deferral()
            deferral.enter()
            kill(getpid(), SIGHUP)
            // A SIGTERM sent after it shows that the reader had its turn: the SIGHUP was never held.
            kill(getpid(), SIGTERM)
            guard SignalDeferralTests.eventually({ deferral.heldSignal == SIGTERM }) else { exit(1) }
            var current = sigaction()
            sigaction(SIGHUP, nil, &current)
            guard ToolSignals.isIgnored(current) else { exit(2) }
            exit(42)
        }
    }

    @Test("When the last section is left, the dispositions the handlers replaced are back")
    func dispositionsRestored() async {
        await #expect(processExitsWith: .exitCode(42)) {
            signal(SIGHUP, SIG_IGN)
            let deferral = SignalDeferralTests.deferral()
            deferral.enter()
            deferral.enter()
            deferral.leave()
            var during = sigaction()
            sigaction(SIGINT, nil, &during)
            guard ToolSignals.handlerAddress(during) > 1 else { exit(1) }
            deferral.leave()
            for number in [SIGINT, SIGTERM, SIGQUIT] {
                var after = sigaction()
                sigaction(number, nil, &after)
                guard ToolSignals.handlerAddress(after) == 0 else { exit(2) }
            }
            var hangUp = sigaction()
            sigaction(SIGHUP, nil, &hangUp)
            guard ToolSignals.isIgnored(hangUp) else { exit(3) }
            // After the section, SIGHUP is still ignored: the process goes on.
            kill(getpid(), SIGHUP)
            usleep(50_000)
            exit(42)
        }
    }

    @Test("SIGQUIT is held like the others, and ends the process by the kernel's default action, printing nothing")
    func quitIsHeld() async {
        let result = await #expect(processExitsWith: .signal(SIGQUIT), observing: [\.standardErrorContent]) {
            var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
            setrlimit(Int32(RLIMIT_CORE.rawValue), &noCore)
            ToolSignals.prepare()
            let deferral = SignalDeferralTests.deferral()
            deferral.enter()
            kill(getpid(), SIGQUIT)
            guard SignalDeferralTests.eventually({ deferral.heldSignal == SIGQUIT }) else { exit(1) }
            deferral.leave()
            exit(2)
        }
        // The runtime's backtracer would print "*** Signal 3: Backtracing …" and "Registers:" with
        // the memory each register points at.
        let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(result != nil)
        #expect(!printed.contains("Backtracing") && !printed.contains("Registers:"), "the backtracer ran")
    }

    @Test("Outside a section, once installed, a signal ends the process at once")
    func signalOutsideSection() async {
        await #expect(processExitsWith: .signal(SIGTERM)) {
            let deferral = SignalDeferralTests.deferral()
            deferral.enter()
            deferral.leave()
            kill(getpid(), SIGTERM)
            _ = SignalDeferralTests.eventually { false }
            exit(1)
        }
    }

    @Test("A held signal ends the process when the bound runs out, though the section is still open")
    func boundRunsOut() async {
        await #expect(processExitsWith: .signal(SIGTERM)) {
            let deferral = SignalDeferralTests.deferral(bound: .milliseconds(100))
            deferral.enter()
            kill(getpid(), SIGTERM)
            _ = SignalDeferralTests.eventually { false }
            exit(1)
        }
    }

    #if os(Linux)
        @Test("A child started during a section has every signal at its default and none blocked")
        func childDuringSection() async {
            await #expect(processExitsWith: .success) {
                let deferral = SignalDeferralTests.deferral()
                deferral.enter()
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-sig-\(UUID())")
                defer { try? FileManager.default.removeItem(at: file) }
                let script =
                    "grep -E '^Sig(Ign|Blk):' /proc/self/status > '\(file.path).part' && mv '\(file.path).part' "
                    + "'\(file.path)'; :"
                guard let url = URL(string: "https://auth.example.com/a") else { exit(3) }
                try await BrowserOpener.command(script).open(url)
                var text: String?
                _ = SignalDeferralTests.eventually {
                    text = try? String(contentsOf: file, encoding: .utf8)
                    return text != nil
                }
                guard let text else { exit(4) }
                for line in text.split(separator: "\n") {
                    let parts = line.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
                    guard parts.count == 2, let mask = UInt64(parts[1], radix: 16) else { exit(5) }
                    for number in SignalDeferral.terminationSignals where mask & (1 << UInt64(number - 1)) != 0 {
                        exit(6)
                    }
                }
                deferral.leave()
            }
        }
    #endif
}
