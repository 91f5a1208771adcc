import Foundation
import Testing

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

    /// Stops the server and deletes its folder, first printing what its log says of connections
    /// it ended and processes that died, so that a test failing on a lost connection shows why.
    func destroy() async {
        _ = try? await Self.run(["stop", directory.path])
        if let log = try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8) {
            let notable = log.split(separator: "\n").filter { line in
                ["terminat", "was terminated", "crash", "PANIC", "too many clients"].contains { line.contains($0) }
            }
            if !notable.isEmpty {
                print("PostgreSQL test server log, ended connections:\n" + notable.suffix(40).joined(separator: "\n"))
            }
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs the script without blocking a thread of the cooperative pool (see ``Spawned``); the
    /// server it starts outlives it.
    @discardableResult
    private static func run(_ arguments: [String]) async throws -> String {
        let (status, text) = try await Spawned(script.path, arguments).wait()
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
