/// What the `bearer` executable answers by itself, without loading a networking library:
/// `--version`, `status`, and `token` when the stored token is fresh. Everything else, and every
/// failure, is left to the whole tool (``FullTool``), which then answers exactly as it always has.
///
/// It never suspends, so the concurrency runtime never starts its threads.
package enum FastPath {
    /// Answers `arguments` if it can.
    ///
    /// - Parameters:
    ///   - arguments: The words after `bearer`.
    ///   - environment: Environment variables, output and the time.
    /// - Returns: The exit code, or `nil` when the whole tool must run instead (nothing was
    ///   written then).
    package static func run(_ arguments: [String], environment: LocalEnvironment = LocalEnvironment()) -> Int32? {
        guard let name = arguments.first else { return nil }
        if arguments == ["--version"] {
            environment.console.out(Version.line)
            return ExitCode.success.rawValue
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch name {
            case TokenCommand.spec.name:
                let parsed = try ParsedArguments(rest, spec: TokenCommand.spec)
                guard !parsed.has("help") else { return nil }
                return try TokenCommand.printStoredToken(parsed, environment)?.rawValue
            case StatusCommand.spec.name:
                let parsed = try ParsedArguments(rest, spec: StatusCommand.spec)
                guard !parsed.has("help") else { return nil }
                let profile = try Profile(parsed, environment)
                // A skipped rule file is the whole tool's to report.
                guard profile.skippedRules.isEmpty else { return nil }
                return try StatusCommand.run(parsed, profile: profile, environment).rawValue
            default:
                return nil
            }
        } catch {
            return nil
        }
    }
}
