import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A PostgreSQL server of the tests' own, run by `scripts/postgres-server` in a temporary folder
/// (initdb, then postgres on a Unix socket in that folder) and stopped when the suite ends.
final class PostgresTestServer: Sendable {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let script = root.appendingPathComponent("scripts/postgres-server")

    /// Whether initdb and pg_ctl are installed (on PATH or in Debian's /usr/lib/postgresql).
    static let isInstalled: Bool = {
        let candidates =
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            + ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .map { "/usr/lib/postgresql/\($0)/bin" }
        return candidates.contains { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }
    }()

    /// Why the suites are skipped when they are; scripts/test fails on this text.
    static let skipReason: Comment = """
        END-TO-END TESTS SKIPPED: PostgreSQL's initdb and pg_ctl are not installed \
        (Debian: apt-get install postgresql libpq-dev; .ci/run installs them).
        """

    /// The folder holding the data directory and the socket.
    let directory: URL
    /// The libpq connection string.
    let connectionString: String

    private init(directory: URL, connectionString: String) {
        self.directory = directory
        self.connectionString = connectionString
    }

    /// Starts a new server in a new temporary folder.
    static func start() async throws -> PostgresTestServer {
        // A short path: a Unix socket's path is limited to about 100 bytes.
        let directory = URL(fileURLWithPath: "/tmp/bearer-pg-\(UUID().uuidString.prefix(8))")
        let output = try await run(["start", directory.path])
        guard let line = output.split(separator: "\n").last, line.hasPrefix("host=") else {
            throw Failure(description: "scripts/postgres-server start printed no connection string: \(output)")
        }
        return PostgresTestServer(directory: directory, connectionString: String(line))
    }

    /// Stops the server, waiting for it.
    func stop() async throws { try await Self.run(["stop", directory.path]) }

    /// Stops the server at once, as a crash would.
    func kill() async throws { try await Self.run(["kill", directory.path]) }

    /// Starts the stopped server again on the same folder.
    func restart() async throws { try await Self.run(["start", directory.path]) }

    /// Stops the server and deletes its folder.
    func destroy() async {
        _ = try? await Self.run(["stop", directory.path])
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs the script without blocking a thread of the cooperative pool: spawned directly and
    /// waited for on a thread of its own, its output in a file (the server it starts outlives it).
    @discardableResult
    private static func run(_ arguments: [String]) async throws -> String {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-pg-\(UUID()).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let argv = ([script.path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid = pid_t()
        let spawned = posix_spawn(&pid, script.path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "cannot run \(script.path): error \(spawned)") }
        let child = pid
        let status = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            Thread {
                var status: Int32 = 0
                while waitpid(child, &status, 0) == -1 && errno == EINTR {}
                continuation.resume(returning: status)
            }.start()
        }
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw Failure(description: "scripts/postgres-server \(arguments[0]) failed: \(text)")
        }
        return text
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}

/// Runs a suite with a PostgreSQL server of its own, started before its first test and
/// stopped after its last: `@Suite(.postgresServer)`; tests read ``PostgresTestServer/current``.
struct PostgresServerTrait: SuiteTrait, TestScoping {
    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try await PostgresTestServer.start()
        do {
            try await PostgresTestServer.$current.withValue(server) { try await function() }
        } catch {
            if ProcessInfo.processInfo.environment["BEARER_POSTGRES_KEEP"] == nil { await server.destroy() }
            throw error
        }
        if ProcessInfo.processInfo.environment["BEARER_POSTGRES_KEEP"] == nil { await server.destroy() }
    }
}

extension Trait where Self == PostgresServerTrait {
    /// A PostgreSQL server for the suite.
    static var postgresServer: Self { PostgresServerTrait() }
}

extension PostgresTestServer {
    /// The server of the running suite.
    @TaskLocal static var current: PostgresTestServer?

    /// The server of the running suite, or a test failure.
    static var running: PostgresTestServer {
        get throws { try #require(current, "the suite has no .postgresServer trait") }
    }
}
