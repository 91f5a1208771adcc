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
        let status: Int32
        let stdout: Data
        let stderr: String
        var output: String { String(decoding: stdout, as: UTF8.self) }
    }

    private let process = Process()
    private let lock = NSLock()
    private var stdoutData = Data()
    private var stderrData = Data()
    private let readers = DispatchGroup()

    /// Starts `executable` with this process's environment plus `environment`.
    init(_ executable: URL, arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let error = Pipe()
        process.standardOutput = out
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
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

    var stderr: String { lock.withLock { String(decoding: stderrData, as: UTF8.self) } }

    /// Kills the process with SIGKILL, as a crash or a power cut would.
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
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
                status: process.terminationStatus, stdout: stdoutData,
                stderr: String(decoding: stderrData, as: UTF8.self))
        }
    }
}
