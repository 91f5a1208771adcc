import Bearer
import Foundation

/// `bearer login`: signs in through the browser (loopback redirect) or the device flow.
enum LoginCommand {
    static let spec = CommandSpec(
        name: "login",
        valueOptions: ServerOptions.valueOptions.union(["scope", "port", "open-with", "timeout"]),
        repeatable: ServerOptions.repeatable,
        flags: ServerOptions.flags.union(["no-open", "device"])
    )

    static func run(_ arguments: ParsedArguments, _ environment: CommandEnvironment) async throws -> ExitCode {
        let profile = try Profile(arguments, environment)
        guard let scopeText = arguments.value("scope"), !Scopes.parse(scopeText).isEmpty else {
            throw UsageError("--scope is required: the scopes to ask for, separated by spaces.", command: "login")
        }
        let scopes = Scopes.parse(scopeText)
        let timeout = try Timeout.seconds(arguments, command: "login")
        let port = try portOption(arguments)
        let server = try await ServerOptions.server(arguments, environment, command: "login")
        let client = try ServerOptions.client(arguments, environment, command: "login")
        let allowedHosts = try AllowedHosts.given(arguments, command: "login")
        let console = environment.console

        let store = profile.store
        let session: AuthSession
        if arguments.has("device") {
            session = try await AuthSession.signInWithDeviceCode(
                to: server,
                as: client,
                scopes: scopes,
                store: store,
                key: profile.name,
                transport: environment.transport,
                clock: environment.clock,
                progress: DeviceSignIn.reporter(
                    opening: arguments.has("no-open") ? nil : .some(arguments.value("open-with")),
                    console: console
                )
            )
        } else {
            let agent = try LoopbackAgent(
                port: port,
                timeout: .seconds(timeout),
                opener: BrowserSignIn.opener(
                    opening: arguments.has("no-open") ? nil : .some(arguments.value("open-with")),
                    timeout: timeout,
                    console: console
                )
            )
            session = try await AuthSession.signIn(
                to: server,
                as: client,
                scopes: scopes,
                using: agent,
                store: store,
                key: profile.name,
                additionalParameters: server.isGoogle ? ["access_type": "offline"] : [:],
                transport: environment.transport,
                clock: environment.clock
            )
        }
        var state = await session.state
        if !allowedHosts.isEmpty {
            AllowedHosts.record(allowedHosts, in: &state)
            try await session.replace(with: state)
        }
        let user = state.user?.email ?? state.user?.subject ?? "an unnamed user"
        console.say("Signed in as \(user.printable) (profile \(profile.name)).")
        console.say("Granted scopes: \(state.grantedScopes.joined(separator: " ").printable)")
        return .success
    }

    private static func portOption(_ arguments: ParsedArguments) throws -> UInt16 {
        guard let text = arguments.value("port") else { return 0 }
        guard let port = UInt16(text) else {
            throw UsageError("--port needs a port number from 0 to 65535.", command: "login")
        }
        return port
    }
}

/// `--timeout SECONDS` (300 by default).
enum Timeout {
    static func seconds(_ arguments: ParsedArguments, command: String) throws -> Int {
        guard let text = arguments.value("timeout") else { return 300 }
        guard let seconds = Int(text), seconds > 0, seconds <= 86_400 else {
            throw UsageError("--timeout needs a number of seconds from 1 to 86400.", command: command)
        }
        return seconds
    }
}

/// The browser part of a sign-in: how the tool shows the authorization page.
enum BrowserSignIn {
    /// Prints the URL and the wait, and opens the browser unless told not to.
    ///
    /// - Parameter opening: `nil` not to open a browser; `.some(nil)` for the default opener;
    ///   `.some(cmd)` for `--open-with`.
    static func opener(opening: String??, timeout: Int, console: Console) -> BrowserOpener {
        BrowserOpener { url in
            console.say("Open this URL in a browser to sign in:")
            console.say("  \(url.absoluteString)")
            if let command = opening {
                try await launcher(command, console: console).open(url)
            }
            let redirect =
                URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
                .first { $0.name == "redirect_uri" }?.value ?? "the redirect address"
            console.say(
                "Waiting up to \(timeout) s for the browser to come back to \(redirect) (press Ctrl-C to cancel)…")
        }
    }

    /// Opens with `command`, or the system's default opener; failures are reported, not thrown.
    static func launcher(_ command: String?, console: Console) -> BrowserOpener {
        let report: @Sendable (String) -> Void = { console.say($0 + " Open the URL above yourself.") }
        return command.map { .command($0, onFailure: report) } ?? .systemDefault(onFailure: report)
    }
}

/// The device flow part of a sign-in (RFC 8628): what the tool prints while it waits.
enum DeviceSignIn {
    static func reporter(opening: String??, console: Console) -> @Sendable (DeviceSignInProgress) -> Void {
        let throttle = ProgressThrottle()
        return { progress in
            switch progress {
            case .codeIssued(let code):
                console.say(
                    "To sign in, open \(code.verificationURI.absoluteString) on any device and enter the code:")
                console.say("  \(code.userCode.printable)")
                if let command = opening, let complete = code.verificationURIComplete {
                    Task { try? await BrowserSignIn.launcher(command, console: console).open(complete) }
                }
            case .waiting(let left):
                if throttle.shouldReport(left) {
                    console.say("Waiting for approval: \(Int(left.rounded())) s left (press Ctrl-C to cancel).")
                }
            case .slowedDown(let interval):
                console.say("The server asked to poll more slowly: every \(Int(interval)) s.")
            }
        }
    }
}

/// Reports the time left at most every 15 seconds.
final class ProgressThrottle: @unchecked Sendable {
    private let lock = NSLock()
    private var lastReported: TimeInterval?

    func shouldReport(_ left: TimeInterval) -> Bool {
        lock.withLock {
            if let lastReported, lastReported - left < 15 { return false }
            lastReported = left
            return true
        }
    }
}
