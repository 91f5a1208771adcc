import BearerCommandLineCore

/// The `bearer` tool: parses the command line, runs the command, and turns any failure into one
/// or two plain sentences on stderr and an exit code.
package enum BearerCommandLine {
    /// Every command, in the order `bearer --help` lists them.
    static let commands: [any Command.Type] = [
        LoginCommand.self, TokenCommand.self, CurlCommand.self, ProofCommand.self, StatusCommand.self,
        AddScopesCommand.self, AccountsCommand.self, ClientKeyCommand.self,
        LogoutCommand.self, MigrateCommand.self, ExportCommand.self,
    ]

    /// The command called `name`.
    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.spec.name == name }
    }

    /// Parses `arguments` for a command without running it (used by tests and the fuzzer).
    ///
    /// - Parameter arguments: The words after `bearer`.
    /// - Returns: The command's name and its parsed arguments.
    /// - Throws: ``UsageError``.
    package static func parse(_ arguments: [String]) throws -> (command: String, arguments: ParsedArguments) {
        guard let name = arguments.first else { throw UsageError("Say which command to run.") }
        guard let command = command(named: name) else {
            throw UsageError("\"\(name)\" is not a bearer command.")
        }
        let parsed = try ParsedArguments(Array(arguments.dropFirst()), spec: command.spec)
        if parsed.value("account") != nil, !accountCommands.contains(name) {
            throw UsageError(
                "bearer \(name) takes no --account: "
                    + (name == "login" || name == "migrate"
                        ? "it adds the account of the user it signs in or imports."
                        : "it uses no account."),
                command: name)
        }
        return (name, parsed)
    }

    /// The commands that use one of a profile's accounts, and so take `--account`.
    static let accountCommands: Set<String> = ["token", "curl", "proof", "status", "add-scopes", "export", "logout"]

    /// Runs the tool.
    ///
    /// - Parameters:
    ///   - arguments: The words after `bearer`.
    ///   - environment: Environment variables, output, network and clock.
    /// - Returns: The exit code.
    package static func run(_ arguments: [String], environment: CommandEnvironment = CommandEnvironment()) async
        -> Int32
    {
        let console = environment.console
        if arguments.isEmpty {
            console.say(help)
            return ExitCode.usage.rawValue
        }
        if arguments == ["--version"] {
            console.out(Version.line)
            return ExitCode.success.rawValue
        }
        if ["--help", "-h", "help"].contains(arguments[0]) {
            if arguments.count > 1 {
                guard let command = command(named: arguments[1]) else {
                    console.say("bearer: \"\(arguments[1])\" is not a bearer command. Run `bearer help` for the list.")
                    return ExitCode.usage.rawValue
                }
                console.out(command.help)
            } else {
                console.out(help)
            }
            return ExitCode.success.rawValue
        }
        do {
            let (name, parsed) = try parse(arguments)
            guard let command = command(named: name) else { return ExitCode.usage.rawValue }
            if parsed.has("help") {
                console.out(command.help)
                return ExitCode.success.rawValue
            }
            return try await command.run(parsed, environment).rawValue
        } catch {
            console.say("bearer: " + ErrorReport.message(for: error))
            return ErrorReport.exitCode(for: error).rawValue
        }
    }
}
