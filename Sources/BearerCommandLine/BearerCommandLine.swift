import BearerCommandLineCore

/// The `bearer` tool: parses the command line, runs the command, and turns any failure into one
/// or two plain sentences on stderr and an exit code.
public enum BearerCommandLine {
    private typealias Runner = @Sendable (ParsedArguments, CommandEnvironment) async throws -> ExitCode

    private static let commands: [String: (spec: CommandSpec, run: Runner)] = [
        "login": (LoginCommand.spec, LoginCommand.run),
        "token": (TokenCommand.spec, TokenCommand.run),
        "curl": (CurlCommand.spec, CurlCommand.run),
        "status": (StatusCommand.spec, { try StatusCommand.run($0, $1.local) }),
        "add-scopes": (AddScopesCommand.spec, AddScopesCommand.run),
        "logout": (LogoutCommand.spec, LogoutCommand.run),
        "migrate": (MigrateCommand.spec, MigrateCommand.run),
        "export": (ExportCommand.spec, ExportCommand.run),
    ]

    /// Parses `arguments` for a command without running it (used by tests and the fuzzer).
    ///
    /// - Parameter arguments: The words after `bearer`.
    /// - Returns: The command's name and its parsed arguments.
    /// - Throws: ``UsageError``.
    public static func parse(_ arguments: [String]) throws -> (command: String, arguments: ParsedArguments) {
        guard let name = arguments.first else { throw UsageError("Say which command to run.") }
        guard let command = commands[name] else {
            throw UsageError("\"\(name)\" is not a bearer command.")
        }
        return (name, try ParsedArguments(Array(arguments.dropFirst()), spec: command.spec))
    }

    /// Runs the tool.
    ///
    /// - Parameters:
    ///   - arguments: The words after `bearer`.
    ///   - environment: Environment variables, output, network and clock.
    /// - Returns: The exit code.
    public static func run(_ arguments: [String], environment: CommandEnvironment = CommandEnvironment()) async -> Int32
    {
        let console = environment.console
        if arguments.isEmpty {
            console.say(Help.general)
            return ExitCode.usage.rawValue
        }
        if arguments == ["--version"] {
            console.out(Version.line)
            return ExitCode.success.rawValue
        }
        if ["--help", "-h", "help"].contains(arguments[0]) {
            if arguments.count > 1 {
                guard let text = Help.commands[arguments[1]] else {
                    console.say("bearer: \"\(arguments[1])\" is not a bearer command. Run `bearer help` for the list.")
                    return ExitCode.usage.rawValue
                }
                console.out(text)
            } else {
                console.out(Help.general)
            }
            return ExitCode.success.rawValue
        }
        do {
            let (name, parsed) = try parse(arguments)
            if parsed.has("help") {
                console.out(Help.commands[name] ?? Help.general)
                return ExitCode.success.rawValue
            }
            guard let command = commands[name] else { return ExitCode.usage.rawValue }
            return try await command.run(parsed, environment).rawValue
        } catch {
            console.say("bearer: " + ErrorReport.message(for: error))
            return ErrorReport.exitCode(for: error).rawValue
        }
    }
}
