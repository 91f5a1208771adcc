import Bearer
import Foundation

/// The options of every command that opens a sign-in (`login`, `add-scopes`): how the page is
/// shown (`--open-with CMD`, `--no-open`, `--no-browser`), where the answer comes back
/// (`--port N`, remembered by the profile) and how long to wait (`--timeout SECONDS`).
enum SignInOptions {
    static let valueOptions: Set<String> = ["port", "open-with", "timeout"]
    static let flags: Set<String> = ["no-open", "no-browser"]

    /// The usage words of these options, for a command's help.
    static let usage = "[--port N] [--open-with CMD] [--no-open] [--no-browser] [--timeout SECONDS]"

    /// What these options do, for a command's help.
    static let help = """
        The authorization URL is printed on stderr and opened in the browser (with --open-with CMD:
        CMD runs with the URL as its last argument; otherwise xdg-open or open; --no-open only
        prints it). Bearer listens on 127.0.0.1 (port --port, or any free one) for the redirect and
        gives up after --timeout seconds (300). A --port that signed in is saved with the profile
        and used again by add-scopes, for servers that register redirect URIs with their port.

        With --no-browser (a machine without a browser, such as one reached over ssh), open the
        printed URL on any machine and sign in there. That browser is then sent to
        http://127.0.0.1:PORT/callback?…, which fails to load there: paste that whole address here.
        Only this sign-in's redirect is accepted; anything else is refused with what was expected.
        If the browser reaches the listener (ssh -L PORT:127.0.0.1:PORT), that answer counts too:
        the first one wins.
        """

    /// Where the port that signed in is saved in the session.
    static let portMetadataKey = "bearer.loopbackPort"

    /// `--timeout SECONDS` (300 by default).
    static func timeout(_ arguments: ParsedArguments, command: String) throws -> Int {
        guard let text = arguments.value("timeout") else { return 300 }
        guard let seconds = Int(text), seconds > 0, seconds <= 86_400 else {
            throw UsageError("--timeout needs a number of seconds from 1 to 86400.", command: command)
        }
        return seconds
    }

    /// `--port N`; else the port saved in `state`; else 0 (any free port).
    static func port(_ arguments: ParsedArguments, remembered state: AuthState? = nil, command: String) throws
        -> UInt16
    {
        guard let text = arguments.value("port") else {
            return state?.metadata[portMetadataKey].flatMap { UInt16($0) } ?? 0
        }
        guard let port = UInt16(text) else {
            throw UsageError("--port needs a port number from 0 to 65535.", command: command)
        }
        return port
    }

    /// Saves the port an explicit `--port` signed in with in `state`; an automatic port is not
    /// worth remembering.
    static func record(port: UInt16, given arguments: ParsedArguments, in state: inout AuthState) {
        guard arguments.value("port") != nil else { return }
        state.metadata[portMetadataKey] = port == 0 ? nil : String(port)
    }

    /// The agent the options ask for: the listener with the browser, or with a pasted address too.
    ///
    /// - Throws: ``BearerError`` when the port cannot be bound.
    static func agent(
        _ arguments: ParsedArguments,
        port: UInt16,
        command: String,
        console: Console,
        purpose: String = "sign in"
    ) throws -> any AuthorizationAgent {
        let timeout = try timeout(arguments, command: command)
        if arguments.has("no-browser") {
            guard arguments.value("open-with") == nil, !arguments.has("no-open") else {
                throw UsageError(
                    "--no-browser opens no browser; give it without --open-with and --no-open.", command: command)
            }
            let input = PastedLines.standardInput
            return try PastedRedirectAgent(
                port: port,
                timeout: .seconds(timeout),
                opener: BrowserSignIn.printer(timeout: timeout, console: console, purpose: purpose),
                nextPaste: { await input.next() },
                report: { BrowserSignIn.report($0, console: console) }
            )
        }
        return try LoopbackAgent(
            port: port,
            timeout: .seconds(timeout),
            opener: BrowserSignIn.opener(
                opening: arguments.has("no-open") ? nil : .some(arguments.value("open-with")),
                timeout: timeout,
                console: console,
                purpose: purpose
            )
        )
    }
}
