public import Bearer
public import Foundation

/// What commands get from the outside world, injectable for tests.
public struct CommandEnvironment: Sendable {
    /// Environment variables.
    public var variables: [String: String]
    /// Where output goes.
    public var console: Console
    /// Sends HTTP requests.
    public var transport: any HTTPTransport
    /// Gives the time.
    public var clock: WallClock

    /// Creates an environment.
    ///
    /// - Parameters:
    ///   - variables: Environment variables.
    ///   - console: Where output goes.
    ///   - transport: Sends HTTP requests; by default `URLSession` with a timeout of
    ///     `$BEARER_HTTP_TIMEOUT` seconds (30).
    ///   - clock: Gives the time.
    public init(
        variables: [String: String] = ProcessInfo.processInfo.environment,
        console: Console = .standard,
        transport: (any HTTPTransport)? = nil,
        clock: WallClock = .system
    ) {
        let timeout =
            variables["BEARER_HTTP_TIMEOUT"].flatMap(TimeInterval.init).flatMap {
                $0.isFinite && $0 > 0 ? min($0, 3600) : nil
            }
            ?? 30
        self.variables = variables
        self.console = console
        self.transport = transport ?? URLSessionTransport(timeout: timeout)
        self.clock = clock
    }

    /// Where sessions live: `$BEARER_CONFIG_DIR`, else `$XDG_CONFIG_HOME/bearer`, else `~/.config/bearer`.
    var configDirectory: URL {
        if let explicit = variables["BEARER_CONFIG_DIR"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        if let xdg = variables["XDG_CONFIG_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("bearer", isDirectory: true)
        }
        let home =
            variables["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".config/bearer", isDirectory: true)
    }

    /// The store holding every profile.
    var store: FileSessionStore {
        FileSessionStore(directory: configDirectory)
    }
}
