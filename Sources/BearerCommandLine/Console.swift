public import Foundation

/// Where a command writes: stdout for results, stderr for everything meant for the person.
public struct Console: Sendable {
    private let writeOut: @Sendable (Data) -> Void
    private let writeError: @Sendable (Data) -> Void

    /// A console writing to the given sinks.
    ///
    /// - Parameters:
    ///   - out: Receives stdout bytes.
    ///   - error: Receives stderr bytes.
    public init(out: @escaping @Sendable (Data) -> Void, error: @escaping @Sendable (Data) -> Void) {
        self.writeOut = out
        self.writeError = error
    }

    /// The process's stdout and stderr. A closed pipe (a reader that went away) is not an error.
    public static let standard = Console(
        out: { try? FileHandle.standardOutput.write(contentsOf: $0) },
        error: { try? FileHandle.standardError.write(contentsOf: $0) }
    )

    /// Writes a result line to stdout.
    func out(_ line: String) {
        writeOut(Data((line + "\n").utf8))
    }

    /// Writes bytes to stdout as they are.
    func outRaw(_ data: Data) {
        writeOut(data)
    }

    /// Writes a message line to stderr.
    func say(_ line: String) {
        writeError(Data((line + "\n").utf8))
    }
}
