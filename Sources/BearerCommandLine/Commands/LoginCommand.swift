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

        var state: AuthState
        if arguments.has("device") {
            state = try await DeviceSignIn.run(
                server: server,
                client: client,
                scopes: scopes,
                open: arguments.has("no-open") ? nil : .some(arguments.value("open-with")),
                environment: environment
            )
        } else {
            let listener = try LoopbackRedirectListener(port: port)
            var extra: [String: String] = [:]
            if server.isGoogle { extra["access_type"] = "offline" }
            let request = try AuthorizationRequest(
                server: server,
                client: client,
                scopes: scopes,
                redirectURI: listener.redirectURI,
                additionalParameters: extra
            )
            let response = try await BrowserSignIn.authorize(
                request,
                listener: listener,
                open: arguments.has("no-open") ? nil : .some(arguments.value("open-with")),
                timeout: timeout,
                console: console
            )
            state = try await AuthState.exchange(
                response, for: request, using: environment.transport, clock: environment.clock)
        }
        if state.user == nil, state.hasGranted("openid"),
            let described = try? await state.fetchingUserInfo(using: environment.transport)
        {
            state = described
        }
        AllowedHosts.record(allowedHosts, in: &state)
        let signedIn = state
        let store = profile.store
        try await store.withExclusiveAccess(to: profile.name) {
            try await store.save(signedIn, key: profile.name)
        }
        console.say(
            "Signed in as \(state.user?.email ?? state.user?.subject ?? "an unnamed user") (profile \(profile.name)).")
        console.say("Granted scopes: \(state.grantedScopes.joined(separator: " "))")
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

/// The browser part of a sign-in: print and open the URL, wait for the redirect on the listener.
enum BrowserSignIn {
    /// - Parameter open: `nil` not to open a browser; `.some(nil)` for the default opener; `.some(cmd)` for `--open-with`.
    static func authorize(
        _ request: AuthorizationRequest,
        listener: LoopbackRedirectListener,
        open: String??,
        timeout: Int,
        console: Console
    ) async throws -> AuthorizationResponse {
        console.say("Open this URL in a browser to sign in:")
        console.say("  \(request.url.absoluteString)")
        if let command = open {
            BrowserLauncher.open(request.url, command: command, console: console)
        }
        console.say(
            "Waiting up to \(timeout) s for the browser to come back to \(listener.redirectURI.absoluteString) "
                + "(press Ctrl-C to cancel)…"
        )
        let redirect = try await listener.waitForRedirect(timeout: .seconds(timeout))
        return try AuthorizationResponse(redirect: redirect, for: request)
    }
}

/// The device flow part of a sign-in (RFC 8628).
enum DeviceSignIn {
    static func run(
        server: AuthorizationServer,
        client: Client,
        scopes: [String],
        open: String??,
        environment: CommandEnvironment
    ) async throws -> AuthState {
        let console = environment.console
        let device = try await DeviceAuthorization.start(
            server: server,
            client: client,
            scopes: scopes,
            using: environment.transport,
            clock: environment.clock
        )
        console.say("To sign in, open \(device.verificationURI.absoluteString) on any device and enter the code:")
        console.say("  \(device.userCode)")
        if let command = open, let complete = device.verificationURIComplete {
            BrowserLauncher.open(complete, command: command, console: console)
        }
        let throttle = ProgressThrottle()
        return try await device.waitForApproval(
            using: environment.transport,
            clock: environment.clock,
            progress: { left in
                if throttle.shouldReport(left) {
                    console.say("Waiting for approval: \(Int(left.rounded())) s left (press Ctrl-C to cancel).")
                }
            }
        )
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
