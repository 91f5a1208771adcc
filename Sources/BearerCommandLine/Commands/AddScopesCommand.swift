import Bearer
@_spi(CommandLine) @_spi(Internals) import BearerCore
import Foundation

/// `bearer add-scopes SCOPE…`: incremental authorization merged into the profile's session.
enum AddScopesCommand: Command {
    static let spec = CommandSpec(
        name: "add-scopes",
        valueOptions: SignInOptions.valueOptions,
        flags: SignInOptions.flags,
        positionals: 1...Int.max,
        positionalName: "SCOPE…"
    )

    static let summary = "ask for more scopes on the same session"

    static let help = """
        usage: bearer add-scopes SCOPE… [--profile NAME] [--account ACCOUNT] \(SignInOptions.usage)

        Asks for more scopes on the same session (include_granted_scopes=true, login_hint = the
        user's email) through the browser, and merges the answer into the profile. Scopes already
        granted are not asked for again. --timeout limits the wait for the browser (300 s).
        Without --port, the port the profile signed in with is used again (any free one if none was
        given); the browser options are those of bearer login.
        """

    static func run(_ arguments: ParsedArguments, _ environment: CommandEnvironment) async throws -> ExitCode {
        let scopes = arguments.positionals.flatMap(Scopes.parse)
        _ = try SignInOptions.timeout(arguments, command: "add-scopes")
        let session = try await Profile(arguments, environment).session(in: environment)
        let port = try SignInOptions.port(arguments, remembered: await session.state, command: "add-scopes")
        let agent = try SignInOptions.agent(arguments, port: port, command: "add-scopes", console: environment.console)
        switch try await session.addScopes(scopes, using: agent) {
        case .alreadyGranted:
            environment.console.say("Every scope asked for is already granted; nothing to do.")
        case .granted:
            var state = await session.state
            let merged = state
            SignInOptions.record(port: port, given: arguments, in: &state)
            if state != merged { try await session.replace(with: state) }
            environment.console.say("Granted scopes: \(state.grantedScopes.joined(separator: " ").printable)")
        }
        return .success
    }
}
