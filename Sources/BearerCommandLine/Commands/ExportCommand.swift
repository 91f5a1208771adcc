import Bearer
@_spi(CommandLine) @_spi(Internals) import BearerCore
import BearerMigration
import Foundation

/// `bearer export --format gtmoauth2|gtmappauth|adc [--output FILE]`: the profile's session in
/// another library's format, on stdout or in a file of mode 0600 that replaces FILE.
enum ExportCommand: Command {
    static let formats = ["gtmoauth2", "gtmappauth", "adc"]

    static let spec = CommandSpec(name: "export", valueOptions: ["format", "output"])

    static let summary = "write the session in another library's format to stdout or a private file"

    static let help = """
        usage: bearer export --format gtmoauth2|gtmappauth|adc [--output FILE] [--profile NAME] [--account ACCOUNT]

        Writes the profile's session, to stdout or, with --output, to FILE with mode 0600, replacing
        FILE if it exists (written like a session file: a new file, then renamed over FILE):

          gtmoauth2   a GTMOAuth2 persistence string, for an app going back to that library
          gtmappauth  a GTMAppAuth keyed archive, likewise
          adc         the authorized_user JSON that gcloud writes, which Google's client libraries
                      read from $GOOGLE_APPLICATION_CREDENTIALS: client_id, client_secret (for a
                      confidential client), refresh_token, token_uri, quota_project_id (when the
                      session came from such a file). It holds no scopes and no access token.
                      Google's libraries send its refreshes to Google's token endpoint whatever
                      token_uri says: for another server, a program must use token_uri itself.

        The output holds the refresh token: prefer --output to redirecting stdout, which creates
        files others can read.
        """

    static func run(_ arguments: ParsedArguments, _ environment: CommandEnvironment) async throws -> ExitCode {
        guard let format = arguments.value("format"), formats.contains(format) else {
            throw UsageError("--format must be gtmoauth2, gtmappauth or adc.", command: "export")
        }
        let output = try arguments.value("output").map { path in
            guard !path.isEmpty, !path.hasSuffix("/") else {
                throw UsageError("--output needs a file name.", command: "export")
            }
            return URL(fileURLWithPath: path, isDirectory: false)
        }
        let profile = try Profile(arguments, environment)
        let state = try await profile.load()
        if let key = state.dpopKey {
            // The other formats know no DPoP key: their tokens would be useless without it.
            throw UsageError(
                "Profile \(profile.name) is bound to DPoP key \(key.thumbprint), which \(format) cannot carry; its "
                    + "tokens are useless without the key. Nothing was written.", command: "export")
        }
        let data: Data
        switch format {
        case "gtmoauth2":
            data = Data(GTMOAuth2PersistenceString.encode(state, dialect: .gtmOAuth2).utf8)
        case "adc":
            data = try authorizedUser(state, profile: profile)
            if !state.server.isGoogle {
                environment.console.say(adcElsewhereWarning(state))
            }
        default:
            data = GTMAppAuthArchive.encode(state)
        }
        guard let output else {
            environment.console.outRaw(data)
            return .success
        }
        // Written like a session file: a new file of mode 0600, flushed, then renamed into place.
        try PrivateFile.write(data, toFileInExistingFolder: output)
        environment.console.say("Wrote the \(format) session to \(output.path) (readable only by you).")
        return .success
    }

    /// What a program reading an `authorized_user` file of another server than Google's must know:
    /// Google's libraries send its refreshes to Google's endpoint whatever `token_uri` says
    /// (google-auth's `Credentials.from_authorized_user_info` sets Google's token URI).
    static func adcElsewhereWarning(_ state: AuthState) -> String {
        "bearer: note: this session's issuer is \(state.server.issuer.absoluteString.printable), not Google. Google's "
            + "client libraries send an authorized_user file's refreshes to Google's token endpoint whatever its "
            + "token_uri says, so a program using this file must build its credentials with token_uri "
            + "(\(state.server.tokenEndpoint.absoluteString.printable)) itself."
    }

    /// gcloud's `authorized_user` credentials for `state`, with its keys sorted and a newline.
    ///
    /// - Throws: ``ToolFailure`` when the session has no refresh token (the format holds nothing else).
    static func authorizedUser(_ state: AuthState, profile: Profile) throws -> Data {
        guard let refreshToken = state.refreshToken else {
            throw ToolFailure(
                "Profile \(profile.name) has no refresh token, and the adc format holds nothing else; sign in "
                    + "again with `bearer login \(profile.flag)…` (for Google, access_type=offline is asked for).")
        }
        var fields = [
            "type": "authorized_user",
            "client_id": state.client.id,
            "refresh_token": refreshToken.value,
            "token_uri": state.server.tokenEndpoint.absoluteString,
        ]
        fields["client_secret"] = state.client.secret?.value
        fields["quota_project_id"] = state.metadata[ApplicationDefaultCredentials.fieldPrefix + "quota_project_id"]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(fields) + Data("\n".utf8)
    }
}
