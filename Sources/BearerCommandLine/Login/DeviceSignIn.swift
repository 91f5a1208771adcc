import Bearer
@_spi(Internals) import BearerCore
import Foundation

/// The device flow part of a sign-in (RFC 8628): what the tool prints while it waits.
enum DeviceSignIn {
    static func reporter(opening: String??, console: Console) -> @Sendable (DeviceSignInProgress) -> Void {
        let throttle = ProgressThrottle()
        return { progress in
            switch progress {
            case .codeIssued(let code):
                console.say(
                    "To sign in, open \(code.verificationURI.absoluteString) on any device and enter the code:")
                console.say("  \(code.userCode.printable)")
                if let command = opening, let complete = code.verificationURIComplete {
                    Task { try? await BrowserSignIn.launcher(command, console: console).open(complete) }
                }
            case .waiting(let left):
                if throttle.shouldReport(left) {
                    console.say("Waiting for approval: \(Int(left.rounded())) s left (press Ctrl-C to cancel).")
                }
            case .slowedDown(let interval):
                console.say("The server asked to poll more slowly: every \(Int(interval)) s.")
            }
        }
    }
}

/// Reports the time left at most every 15 seconds.
final class ProgressThrottle: @unchecked Sendable {
    private let lock = NSLock()
    private var lastReported: TimeInterval?

    func shouldReport(_ left: TimeInterval) -> Bool {
        lock.withLock {
            if let lastReported, lastReported - left < 15 { return false }
            lastReported = left
            return true
        }
    }
}
