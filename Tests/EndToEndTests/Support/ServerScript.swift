import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A test server of `Server/`, a Python script that prints its base URL as its first line and
/// serves until killed, started for one test suite.
final class ServerScript: @unchecked Sendable {
    // Unchecked: `process` is only started in `init` and killed in `stop()`.
    /// The base URL the script printed.
    let base: URL
    private let process = Process()

    /// Starts `Server/<name>` with `python`, and waits for its URL (on a thread of its own).
    ///
    /// - Parameters:
    ///   - name: The script's file name in `Server/`.
    ///   - python: The interpreter; `python3` on `PATH` unless given.
    ///   - arguments: The script's arguments.
    init(_ name: String, python: URL? = nil, arguments: [String] = []) async throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Server/\(name)")
        if let python {
            process.executableURL = python
            process.arguments = [script.path] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script.path] + arguments
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        // A script that prints no line in time is killed, which ends the read.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(120))
            kill(pid, SIGKILL)
        }
        defer { watchdog.cancel() }
        let reading = output.fileHandleForReading
        do {
            let line = try await onOwnThread {
                var line = Data()
                while !line.contains(UInt8(ascii: "\n")) {
                    let chunk = reading.availableData
                    if chunk.isEmpty { break }
                    line.append(chunk)
                }
                return line
            }
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            base = try #require(URL(string: text), "\(name) printed its URL")
        } catch {
            // No instance to stop it later: `deinit` runs only for one that was made.
            kill(pid, SIGKILL)
            throw error
        }
    }

    deinit {
        stop()
    }

    /// Stops the server process. SIGKILL, because a child started from a test may inherit a
    /// signal mask that blocks SIGTERM.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
