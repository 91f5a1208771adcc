import Bearer
import Foundation
import Testing

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

    /// Runs `bearer arguments…` to completion, with `variables` added to its environment.
    func run(_ arguments: [String], variables: [String: String] = [:]) async throws -> ChildProcess.Result {
        let running = try start(arguments, variables: variables)
        return await running.finish()
    }

    /// Starts `bearer arguments…` in the background, with `variables` added to its environment.
    func start(_ arguments: [String], input: Bool = false, variables: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess(
            try BuiltProduct.path("bearer"), arguments: arguments,
            environment: environment.merging(variables) { fixed, _ in fixed }, input: input)
    }

    /// Starts `launcher… bearer arguments…` in the background: the tool run by another program
    /// that execs it, as `nohup bearer token` does.
    ///
    /// - Parameter launcher: The launching program's absolute path and its arguments.
    func start(_ arguments: [String], launchedBy launcher: [String]) throws -> ChildProcess {
        let program = URL(fileURLWithPath: launcher[0])
        let words = Array(launcher.dropFirst()) + [try BuiltProduct.path("bearer").path] + arguments
        return try ChildProcess(program, arguments: words, environment: environment)
    }

    private var environment: [String: String] {
        var environment = ["BEARER_CONFIG_DIR": configDirectory.path]
        if let timeout { environment["BEARER_HTTP_TIMEOUT"] = String(timeout) }
        return environment
    }
}
