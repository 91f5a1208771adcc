import Bearer
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `bearer token`: prints a fresh access token and a newline, nothing else.
enum TokenCommand {
    static let spec = FreshTokenCommand.spec

    static func run(_ arguments: ParsedArguments, _ environment: CommandEnvironment) async throws -> ExitCode {
        let session = try await Profile(arguments, environment).session(using: environment.transport)
        let token = try await session.validAccessToken()
        environment.console.out(token.value)
        return .success
    }
}

/// `bearer curl URL [-X METHOD] [-H "Name: value"]… [-d DATA]`: an authorized request; the body
/// goes to stdout.
enum CurlCommand {
    static let spec = CommandSpec(
        name: "curl",
        valueOptions: ["request", "data"],
        repeatable: ["header"],
        shortNames: ["X": "request", "H": "header", "d": "data"],
        positionals: 1...1,
        positionalName: "URL"
    )

    static func run(_ arguments: ParsedArguments, _ environment: CommandEnvironment) async throws -> ExitCode {
        let target = arguments.positionals[0]
        guard let url = URL(string: target), url.scheme != nil, url.host != nil else {
            throw UsageError("\(target) is not an absolute URL.", command: "curl")
        }
        var request = URLRequest(url: url)
        if let data = arguments.value("data") {
            request.httpMethod = "POST"
            request.httpBody = Data(data.utf8)
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        }
        if let method = arguments.value("request") { request.httpMethod = method.uppercased() }
        for header in arguments.values["header"] ?? [] {
            guard let colon = header.firstIndex(of: ":"), colon > header.startIndex else {
                throw UsageError("-H needs \"Name: value\" with a colon after the name.", command: "curl")
            }
            let name = header[..<colon].trimmingCharacters(in: .whitespaces)
            guard name.lowercased() != "authorization" else {
                throw UsageError(
                    "bearer curl sets the Authorization header itself; remove -H Authorization.", command: "curl")
            }
            request.setValue(
                header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces), forHTTPHeaderField: name)
        }
        let profile = try Profile(arguments, environment)
        let session = try await profile.session(using: environment.transport)
        let (data, response): (Data, HTTPURLResponse)
        do {
            (data, response) = try await session.data(for: request)
        } catch let error as BearerError where error.kind == .hostNotAllowed {
            let hosts = AllowedHosts.list(for: await session.state)
            let host = url.host ?? target
            throw BearerError.hostNotAllowed(
                "Profile \(profile.name) sends its tokens only to \(hosts.joined(separator: ", ")), not to \(host); "
                    + "nothing was sent. To allow \(host), sign in again with "
                    + "`bearer login \(profile.flag)--allow-host \(host) …` (the flag may be repeated)."
            )
        }
        environment.console.outRaw(data)
        guard (200..<300).contains(response.statusCode) else {
            environment.console.say("The server answered HTTP \(response.statusCode) for \(url.host ?? target).")
            return .httpError
        }
        return .success
    }
}

/// `bearer logout`: revokes the grant and removes the profile's session. The session is removed
/// even when revocation fails; the exit code then says so (69 when the server was unreachable).
enum LogoutCommand {
    static let spec = CommandSpec(name: "logout")

    static func run(_ arguments: ParsedArguments, _ environment: CommandEnvironment) async throws -> ExitCode {
        let profile = try Profile(arguments, environment)
        let console = environment.console
        // Only a session that cannot be read at all is removed unrevoked; one that may not be read
        // (an unsafe file or folder) is refused, and nothing is removed.
        guard let stored = try await LogoutRules.load(profile) else {
            if FileManager.default.fileExists(atPath: profile.file) {
                try await profile.store.remove(key: profile.name)
                console.say("Removed the unreadable session of profile \(profile.name); it could not be revoked.")
                return .failure
            }
            console.say("Profile \(profile.name) has no session; nothing to sign out of.")
            return .success
        }
        let outcome = try await profile.session(using: environment.transport).disconnect()
        switch outcome {
        case .revoked:
            console.say(
                "Signed out of profile \(profile.name): the server revoked the grant and the session was removed.")
        case .notRevoked:
            console.say(
                "Signed out of profile \(profile.name). The server offers no revocation, so only the local session was removed."
            )
            return .failure
        case .failed(let error):
            console.say(
                "Signed out of profile \(profile.name) locally: the session was removed, but the server did not "
                    + "revoke the grant.")
            console.say(
                ErrorReport.message(for: error) + " The grant may still be valid; revoke it "
                    + revocationPlace(for: stored.server) + ".")
            return ErrorReport.exitCode(for: error) == .unavailable ? .unavailable : .failure
        }
        return .success
    }

    /// Where a person can revoke a grant by hand.
    static func revocationPlace(for server: AuthorizationServer) -> String {
        if server.isGoogle { return "at https://myaccount.google.com/permissions" }
        return "in your account's settings at \(server.issuer.host ?? server.issuer.absoluteString)"
    }
}

/// `bearer add-scopes SCOPE…`: incremental authorization merged into the profile's session.
enum AddScopesCommand {
    static let spec = CommandSpec(
        name: "add-scopes",
        valueOptions: ["open-with", "timeout"],
        flags: ["no-open"],
        positionals: 1...Int.max,
        positionalName: "SCOPE…"
    )

    static func run(_ arguments: ParsedArguments, _ environment: CommandEnvironment) async throws -> ExitCode {
        let scopes = arguments.positionals.flatMap(Scopes.parse)
        let timeout = try Timeout.seconds(arguments, command: "add-scopes")
        let session = try await Profile(arguments, environment).session(using: environment.transport)
        let agent = try LoopbackAgent(
            timeout: .seconds(timeout),
            opener: BrowserSignIn.opener(
                opening: arguments.has("no-open") ? nil : .some(arguments.value("open-with")),
                timeout: timeout,
                console: environment.console
            )
        )
        switch try await session.addScopes(scopes, using: agent) {
        case .alreadyGranted:
            environment.console.say("Every scope asked for is already granted; nothing to do.")
        case .granted:
            let granted = await session.state.grantedScopes
            environment.console.say("Granted scopes: \(granted.joined(separator: " ").printable)")
        case .cancelled:
            environment.console.say("Cancelled; the session is unchanged.")
            return .failure
        }
        return .success
    }
}
