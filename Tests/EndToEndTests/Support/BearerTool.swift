import Bearer
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the built `bearer` executable with its own config folder, as a user's shell would.
struct BearerTool {
    let configDirectory: URL
    /// `BEARER_HTTP_TIMEOUT` for the processes, if set.
    let timeout: Int?

    init(timeout: Int? = nil) {
        configDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bearer-cli-\(UUID().uuidString)")
        self.timeout = timeout
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: configDirectory)
    }

    var store: FileSessionStore { FileSessionStore(directory: configDirectory) }

    /// The `--open-with` command of the headless browser (scripts/headless-browser).
    static var browser: String {
        if let configured = ProcessInfo.processInfo.environment["BEARER_E2E_BROWSER"] { return configured }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return "'\(root.path)/.build/e2e-venv/bin/python' '\(root.path)/scripts/headless-browser' --quiet"
    }

    struct Result {
        let status: Int32
        let stdout: Data
        let stderr: String
        var output: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs `bearer arguments…` to completion.
    func run(_ arguments: [String]) async throws -> Result {
        let running = try start(arguments)
        return await running.finish()
    }

    /// Starts `bearer arguments…` in the background.
    func start(_ arguments: [String]) throws -> Running {
        try Running(
            executable: try BuiltProduct.path("bearer"),
            arguments: arguments,
            configDirectory: configDirectory,
            timeout: timeout
        )
    }

    /// A `bearer` process whose output is collected while it runs.
    final class Running: @unchecked Sendable {
        private let process = Process()
        private let lock = NSLock()
        private var stdoutData = Data()
        private var stderrData = Data()
        private let readers = DispatchGroup()

        init(executable: URL, arguments: [String], configDirectory: URL, timeout: Int?) throws {
            process.executableURL = executable
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["BEARER_CONFIG_DIR"] = configDirectory.path
            if let timeout { environment["BEARER_HTTP_TIMEOUT"] = String(timeout) }
            process.environment = environment
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
            Issue.record("bearer did not print \"\(pattern)\"; it printed: \(stderr)")
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
}
