#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command writes: stdout for results, stderr for everything meant for the person.
package struct Console: Sendable {
    private let writeOut: @Sendable (Data) -> Void
    private let writeError: @Sendable (Data) -> Void

    /// A console writing to the given sinks.
    ///
    /// - Parameters:
    ///   - out: Receives stdout bytes.
    ///   - error: Receives stderr bytes.
    package init(out: @escaping @Sendable (Data) -> Void, error: @escaping @Sendable (Data) -> Void) {
        self.writeOut = out
        self.writeError = error
    }

    /// The process's stdout and stderr. A closed pipe (a reader that went away) is not an error.
    package static let standard = Console(
        out: { writeAll($0, to: STDOUT_FILENO) },
        error: { writeAll($0, to: STDERR_FILENO) }
    )

    /// Writes every byte of `data` to `descriptor`, resuming after interruptions and partial
    /// writes, and giving up silently on any other failure.
    private static func writeAll(_ data: Data, to descriptor: Int32) {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    /// Writes a result line to stdout.
    package func out(_ line: String) {
        writeOut(Data((line + "\n").utf8))
    }

    /// Writes bytes to stdout as they are.
    package func outRaw(_ data: Data) {
        writeOut(data)
    }

    /// Writes a message line to stderr.
    package func say(_ line: String) {
        writeError(Data((line + "\n").utf8))
    }
}
