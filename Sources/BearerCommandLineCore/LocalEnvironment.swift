@_spi(CommandLine) package import BearerCore

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// What commands that never leave this machine get from the outside world (environment variables,
/// output and the time), injectable for tests. ``CommandEnvironment`` adds the network.
package struct LocalEnvironment: Sendable {
    /// Environment variables.
    package var variables: EnvironmentVariables
    /// Where output goes.
    package var console: Console
    /// Gives the time.
    package var clock: WallClock
    /// The working directory, where the search for account rule files (``AccountRules``) starts;
    /// `nil` for none.
    package var workingDirectoryPath: String?

    /// Creates an environment.
    ///
    /// - Parameters:
    ///   - variables: Environment variables; `nil` (the default) for the process's.
    ///   - console: Where output goes.
    ///   - clock: Gives the time.
    ///   - workingDirectory: Where account rule files are looked for; the process's by default.
    package init(
        variables: [String: String]? = nil,
        console: Console = .standard,
        clock: WallClock = .system,
        workingDirectory: String? = Self.processWorkingDirectory()
    ) {
        self.variables = variables.map(EnvironmentVariables.init) ?? .process
        self.console = console
        self.clock = clock
        self.workingDirectoryPath = workingDirectory
    }

    /// The process's working directory; `nil` when it cannot be read (it was removed).
    package static func processWorkingDirectory() -> String? {
        let path = FileManager.default.currentDirectoryPath
        return path.isEmpty ? nil : path
    }

    /// Where sessions live: `$BEARER_CONFIG_DIR`, else `$XDG_CONFIG_HOME/bearer`, else `~/.config/bearer`.
    package var configDirectory: URL {
        URL(fileURLWithPath: configDirectoryPath, isDirectory: true)
    }

    /// The path of ``configDirectory``, made without a URL.
    package var configDirectoryPath: String {
        if let explicit = variables["BEARER_CONFIG_DIR"], !explicit.isEmpty { return explicit }
        if let xdg = variables["XDG_CONFIG_HOME"], !xdg.isEmpty {
            return FileSessionStore.path("bearer", inFolder: xdg)
        }
        let home =
            variables["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return FileSessionStore.path(".config/bearer", inFolder: home)
    }

    /// The store holding every profile.
    package var store: FileSessionStore {
        FileSessionStore(directoryPath: configDirectoryPath)
    }
}
