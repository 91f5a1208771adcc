@_spi(Internals) import BearerCore

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

    /// The process's stdout and stderr. A closed pipe (a reader that went away) is not an error;
    /// any other failure to write stdout is recorded in ``standardOutputFailure``.
    package static let standard = Console(
        out: { data in
            if let error = writeAll(data, to: STDOUT_FILENO), error != EPIPE { OutputFailure.standard.record(error) }
        },
        error: { _ = writeAll($0, to: STDERR_FILENO) }
    )

    /// Why writing stdout failed (an `errno` value), when it did for another reason than a closed
    /// pipe: a full disk, an I/O error.
    package static var standardOutputFailure: Int32? { OutputFailure.standard.first }

    /// The exit code to end with: `code`, or 74 (`EX_IOERR`) with a message on stderr when
    /// writing stdout failed, so that `bearer export > file` on a full disk does not succeed.
    ///
    /// - Parameter code: The command's exit code.
    /// - Returns: The exit code.
    package static func finishing(_ code: Int32) -> Int32 {
        guard let failure = standardOutputFailure else { return code }
        standard.say("bearer: could not write the output: \(String(cString: strerror(failure))).")
        return ExitCode.outputFailed.rawValue
    }

    /// Writes every byte of `data` to `descriptor`, resuming after interruptions and partial
    /// writes.
    ///
    /// - Returns: `nil` when everything was written, else the `errno` of the failure.
    package static func writeAll(_ data: Data, to descriptor: Int32) -> Int32? {
        data.withUnsafeBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return written < 0 ? errno : EIO
                }
            }
            return nil
        }
    }

    /// Writes a result line to stdout.
    package func out(_ line: String) {
        writeOut(Self.lineData(line))
    }

    /// Writes bytes to stdout as they are.
    package func outRaw(_ data: Data) {
        writeOut(data)
    }

    /// Writes a message line to stderr.
    package func say(_ line: String) {
        writeError(Self.lineData(line))
    }

    /// `line` and a newline as UTF-8. `Data(line.utf8)` would ask the runtime whether the UTF-8
    /// view is contiguous bytes, a search of every conformance in the binary that `bearer token`
    /// would pay at each start.
    private static func lineData(_ line: String) -> Data {
        var text = line + "\n"
        return text.withUTF8 { Data(buffer: $0) }
    }
}

/// The first failure to write an output, kept until the process exits.
private final class OutputFailure: @unchecked Sendable {
    static let standard = OutputFailure()
    private let lock = Lock()
    private var error: Int32?

    var first: Int32? { lock.withLock { error } }

    func record(_ failure: Int32) {
        lock.withLock { error = error ?? failure }
    }
}
