import Bearer
import BearerMigration
import Foundation

/// `bearer export --format gtmoauth2|gtmappauth [--output FILE]`: the profile's session in a
/// legacy format, on stdout or in a new file of mode 0600.
enum ExportCommand {
    static let spec = CommandSpec(name: "export", valueOptions: ["format", "output"])

    static func run(_ arguments: ParsedArguments, _ environment: CommandEnvironment) async throws -> ExitCode {
        let format = arguments.value("format")
        guard format == "gtmoauth2" || format == "gtmappauth" else {
            throw UsageError("--format must be gtmoauth2 or gtmappauth.", command: "export")
        }
        let output = try arguments.value("output").map { path in
            guard !path.isEmpty, !path.hasSuffix("/") else {
                throw UsageError("--output needs a file name.", command: "export")
            }
            return URL(fileURLWithPath: path, isDirectory: false)
        }
        let state = try await Profile(arguments, environment).load()
        let data: Data
        let name = format ?? "gtmappauth"
        switch name {
        case "gtmoauth2":
            data = Data(GTMOAuth2PersistenceString.encode(state, dialect: .gtmOAuth2).utf8)
        default:
            data = GTMAppAuthArchive.encode(state)
        }
        guard let output else {
            environment.console.outRaw(data)
            return .success
        }
        // Written like a session file: a new file of mode 0600, flushed, then renamed into place.
        try PrivateFile.write(data, toFileInExistingFolder: output)
        environment.console.say("Wrote the \(name) session to \(output.path) (readable only by you).")
        return .success
    }
}
