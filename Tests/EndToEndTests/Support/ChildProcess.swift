import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process (`bearer`, the headless browser) whose output is collected while it runs.
final class ChildProcess: @unchecked Sendable {
    struct Result {
        /// The exit status, or the number of the signal that ended the process.
        let status: Int32
        /// The signal that ended the process, or `nil` when it exited.
        let signal: Int32?
        let stdout: Data
        let stderr: String
        var output: String { String(decoding: stdout, as: UTF8.self) }
    }

    private let process = Process()
    private let lock = NSLock()
    private var stdoutData = Data()
    private var stderrData = Data()
    private let readers = DispatchGroup()
    private let input: Pipe?

    /// Starts `executable` with this process's environment plus `environment`; with `input`, its
    /// stdin is a pipe that ``write(line:)`` writes to, else it reads nothing.
    init(_ executable: URL, arguments: [String], environment: [String: String] = [:], input: Bool = false) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let error = Pipe()
        process.standardOutput = out
        process.standardError = error
        self.input = input ? Pipe() : nil
        process.standardInput = self.input ?? FileHandle.nullDevice
        // A child that exits before reading what is written must not kill the tests with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        collect(out.fileHandleForReading) { self.stdoutData.append($0) }
        collect(error.fileHandleForReading) { self.stderrData.append($0) }
    }

    private func collect(_ handle: FileHandle, _ append: @escaping @Sendable (Data) -> Void) {
        readers.enter()
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.withLock { append(chunk) }
            }
            readers.leave()
        }.start()
    }

    /// Writes `line` and a newline to the process's stdin, as a user pasting it would; nothing
    /// when the process has exited.
    func write(line: String) {
        try? input?.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    var stderr: String { lock.withLock { String(decoding: stderrData, as: UTF8.self) } }

    /// Whether the process has not ended yet.
    var isRunning: Bool { process.isRunning }

    /// Kills the process with SIGKILL, as a crash or a power cut would.
    func kill() {
        send(SIGKILL)
    }

    /// Sends `signal` to the process, as Ctrl-C, `kill` or a closed terminal would, unless it has
    /// ended.
    func send(_ signal: Int32) {
        if process.isRunning { Foundation.kill(process.processIdentifier, signal) }
    }

    /// Waits (polling the collected output) until stderr matches `pattern`, or the process ends.
    func waitForStderr(containing pattern: String, within seconds: Double = 30) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let text = stderr
            if text.contains(pattern) { return text }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let name = process.executableURL?.lastPathComponent ?? "the process"
        Issue.record("\(name) did not print \"\(pattern)\"; it printed: \(stderr)")
        return stderr
    }

    func finish() async -> Result {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread { [self] in
                process.waitUntilExit()
                readers.wait()
                continuation.resume()
            }.start()
        }
        return lock.withLock {
            Result(
                status: process.terminationStatus,
                signal: process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil,
                stdout: stdoutData, stderr: String(decoding: stderrData, as: UTF8.self))
        }
    }
}
