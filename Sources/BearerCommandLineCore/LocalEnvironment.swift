package import BearerCore

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// What commands that never leave this machine get from the outside world (environment variables,
/// output and the time), injectable for tests. ``CommandEnvironment`` adds the network.
package struct LocalEnvironment: Sendable {
    /// Environment variables.
    package var variables: [String: String]
    /// Where output goes.
    package var console: Console
    /// Gives the time.
    package var clock: WallClock

    /// Creates an environment.
    ///
    /// - Parameters:
    ///   - variables: Environment variables.
    ///   - console: Where output goes.
    ///   - clock: Gives the time.
    package init(
        variables: [String: String] = ProcessInfo.processInfo.environment,
        console: Console = .standard,
        clock: WallClock = .system
    ) {
        self.variables = variables
        self.console = console
        self.clock = clock
    }

    /// Where sessions live: `$BEARER_CONFIG_DIR`, else `$XDG_CONFIG_HOME/bearer`, else `~/.config/bearer`.
    package var configDirectory: URL {
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
    package var store: FileSessionStore {
        FileSessionStore(directory: configDirectory)
    }
}
