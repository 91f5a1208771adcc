package import Bearer
@_spi(CommandLine) import BearerCore
import Foundation

/// What commands get from the outside world, injectable for tests: a ``LocalEnvironment`` and
/// the network.
package struct CommandEnvironment: Sendable {
    /// Environment variables, output and the time.
    package var local: LocalEnvironment
    /// Sends HTTP requests.
    package var transport: any HTTPTransport
    /// The longest an exchange with the token endpoint may take: `$BEARER_HTTP_TIMEOUT` seconds
    /// (30), the default transport's deadline.
    package var requestDeadline: Duration
    /// Told when each refresh is sent and when its outcome is saved: the `bearer-full` executable
    /// passes a ``SignalDeferral``; `nil` (the default) handles no signal.
    package var refreshCriticalSection: (any RefreshCriticalSection)?

    /// Creates an environment.
    ///
    /// - Parameters:
    ///   - variables: Environment variables; `nil` (the default) for the process's.
    ///   - console: Where output goes.
    ///   - transport: Sends HTTP requests; by default `URLSession` with a timeout of
    ///     `$BEARER_HTTP_TIMEOUT` seconds (30).
    ///   - clock: Gives the time.
    ///   - workingDirectory: Where account rule files are looked for; the process's by default.
    package init(
        variables: [String: String]? = nil,
        console: Console = .standard,
        transport: (any HTTPTransport)? = nil,
        clock: WallClock = .system,
        workingDirectory: String? = LocalEnvironment.processWorkingDirectory()
    ) {
        let local = LocalEnvironment(
            variables: variables, console: console, clock: clock, workingDirectory: workingDirectory)
        let timeout =
            local.variables["BEARER_HTTP_TIMEOUT"].flatMap(TimeInterval.init).flatMap {
                $0.isFinite && $0 > 0 ? min($0, 3600) : nil
            }
            ?? 30
        self.local = local
        self.transport = transport ?? URLSessionTransport(timeout: timeout)
        self.requestDeadline = .milliseconds(Int64(timeout * 1000))
    }

    /// Environment variables.
    package var variables: EnvironmentVariables {
        local.variables
    }

    /// Where output goes.
    package var console: Console {
        get { local.console }
        set { local.console = newValue }
    }

    /// Gives the time.
    package var clock: WallClock {
        get { local.clock }
        set { local.clock = newValue }
    }

    /// Where sessions live (see ``LocalEnvironment``).
    var configDirectory: URL { local.configDirectory }

    /// The store holding every profile.
    var store: FileSessionStore { local.store }
}
