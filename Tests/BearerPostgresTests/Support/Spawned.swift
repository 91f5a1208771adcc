import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process spawned directly (posix_spawn), its output in a file, waited for on a thread
/// of its own so that no thread of the cooperative pool blocks.
final class Spawned: Sendable {
    let pid: pid_t
    private let log: String

    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-spawn-\(UUID()).log").path
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
        #else
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard status == 0 else { throw PostgresTestServer.Failure(description: "cannot run \(executable): \(status)") }
        self.pid = pid
    }

    /// What the process printed so far (stdout and stderr).
    var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// Waits for the process to end; returns its wait status and output.
    func wait() async -> (status: Int32, output: String) {
        let pid = self.pid
        let status = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            Thread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                continuation.resume(returning: status)
            }.start()
        }
        let text = output
        try? FileManager.default.removeItem(atPath: log)
        return (status, text)
    }

    /// Kills the process with SIGKILL, as a crash would.
    func kill() { _ = Glibc.kill(pid, SIGKILL) }

    /// Waits until the output contains `text`, at most `seconds`.
    func waitForOutput(containing text: String, within seconds: Double) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if output.contains(text) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}
