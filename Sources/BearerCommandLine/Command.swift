/// One command of the tool: what it accepts, its help, and what it does. Each command is declared
/// in its own file under `Commands/`, its help next to it; ``BearerCommandLine`` lists them.
///
/// `token` and `status` are declared in BearerCommandLineCore, with the part the `bearer`
/// executable answers without the network; their conformance adds the rest.
protocol Command: Sendable {
    /// The command's name and options.
    static var spec: CommandSpec { get }
    /// The command's line in `bearer --help`.
    static var summary: String { get }
    /// The text of `bearer help NAME`: a usage line, a blank line, then what it does.
    static var help: String { get }
    /// Runs the command.
    ///
    /// - Returns: The exit code.
    /// - Throws: Any error; ``ErrorReport`` turns it into a message and an exit code.
    static func run(_ arguments: ParsedArguments, _ environment: CommandEnvironment) async throws -> ExitCode
}

extension StatusCommand: Command {
    static func run(_ arguments: ParsedArguments, _ environment: CommandEnvironment) async throws -> ExitCode {
        try run(arguments, environment.local)
    }
}
