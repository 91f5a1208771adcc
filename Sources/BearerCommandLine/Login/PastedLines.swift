import Foundation

/// Lines the user pastes into the terminal, read on a thread of their own so that waiting for one
/// can be given up (when the listener answers first) without blocking the tool.
final class PastedLines: @unchecked Sendable {
    /// The lines of standard input, read from the first time one is asked for.
    static let standardInput = PastedLines()

    private let lock = NSLock()
    private var stream: AsyncStream<String>?

    /// The next line; `nil` at the end of input or when the calling task is cancelled. One caller
    /// at a time.
    func next() async -> String? {
        let lines = lock.withLock {
            if let stream { return stream }
            let started = Self.readStandardInput()
            stream = started
            return started
        }
        var iterator = lines.makeAsyncIterator()
        return await iterator.next()
    }

    private static func readStandardInput() -> AsyncStream<String> {
        AsyncStream { continuation in
            Thread {
                while let line = readLine(strippingNewline: true) {
                    continuation.yield(line)
                }
                continuation.finish()
            }.start()
        }
    }
}
