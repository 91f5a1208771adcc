import BearerCommandLine
import Foundation

/// Collects what a command writes.
final class Capture: @unchecked Sendable {
    private let lock = NSLock()
    private var out = Data()
    private var error = Data()

    var console: Console {
        Console(
            out: { data in self.lock.withLock { self.out.append(data) } },
            error: { data in self.lock.withLock { self.error.append(data) } }
        )
    }

    var stdout: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
    var stdoutBytes: Data { lock.withLock { out } }
    var stderr: String { lock.withLock { String(decoding: error, as: UTF8.self) } }
}
