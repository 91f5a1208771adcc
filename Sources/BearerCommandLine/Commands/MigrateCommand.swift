import Bearer
@_spi(CommandLine) @_spi(Internals) import BearerCore
import BearerMigration
import Foundation

/// `bearer migrate --from FORMAT FILE`: imports a legacy session into a profile.
enum MigrateCommand: Command {
    static let formats = ["gtmoauth2", "gtmappauth", "googlesignin", "adc"]

    static let spec = CommandSpec(
        name: "migrate",
        valueOptions: ServerOptions.valueOptions.union(["from"]),
        repeatable: ServerOptions.repeatable,
        flags: ServerOptions.flags.union(["force"]),
        positionals: 1...1,
        positionalName: "FILE"
    )

    static let summary = "import a session saved by GTMOAuth2, GTMAppAuth, GoogleSignIn or gcloud"

    static let help = """
        usage: bearer migrate --from gtmoauth2|gtmappauth|googlesignin|adc FILE [--profile NAME] [--force]
                              [(--issuer URL | --google) --client-id ID] [--client-secret-file FILE]
                              [--allow-insecure-loopback] [--allow-host HOST]…

        Imports a legacy session into the profile; FILE is left as it is. A profile that already
        has a session is not overwritten without --force.

          gtmoauth2     a GTMOAuth2 persistence string (either dialect); needs --issuer or --google
                        and --client-id, which the string does not record
          gtmappauth    a GTMAppAuth keyed archive (the keychain item's data); its issuer is the
                        one it names, else its ID token's iss; one that names none needs --issuer
          googlesignin  a JSON object of GoogleSignIn's keychain items: "fingerprint", the item it
                        names, optionally "<fingerprint>~~atrp" and "bundle_id"
          adc           gcloud application default credentials (authorized_user)

        GoogleSignIn items and gcloud credentials are Google's unless --issuer names another
        server. A --issuer or --client-id that differs from what FILE holds is refused (exit 64)
        rather than either being chosen. Imported sessions refresh their access token on first use.
        """

    static func run(_ arguments: ParsedArguments, _ environment: CommandEnvironment) async throws -> ExitCode {
        let profile = try Profile(arguments, environment)
        guard let format = arguments.value("from"), formats.contains(format) else {
            throw UsageError("--from must be one of \(formats.joined(separator: ", ")).", command: "migrate")
        }
        let path = arguments.positionals[0]
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MigrationError.malformedItem("Cannot read \(path); check the path and its permissions.")
        }
        if !arguments.has("force"), try await existingSession(profile) {
            throw UsageError(
                "Profile \(profile.name) already has a session; pass --force to replace it, or choose another --profile.",
                command: "migrate"
            )
        }
        var state = try await decode(format: format, data: data, arguments: arguments, environment: environment)
        try adoptClient(arguments, environment, into: &state, path: path)
        if arguments.has("allow-insecure-loopback") { state.server.allowsInsecureLoopback = true }
        AllowedHosts.record(try AllowedHosts.given(arguments, command: "migrate"), in: &state)
        try state.server.checkSecure(state.server.tokenEndpoint)
        let imported = state
        let store = profile.store
        let saved = try await store.withExclusiveAccess(to: profile.name) { access -> AuthState? in
            try await access.write(imported)
            return try await access.load()
        }
        guard saved == imported else {
            throw MigrationError.verificationFailed(
                "The imported session did not read back the same; \(path) is unchanged. Check the config folder's "
                    + "permissions and free space, then run migrate again with --force.")
        }
        let who =
            state.user?.email ?? (state.user?.subject.isEmpty == false ? state.user?.subject : nil) ?? "an unnamed user"
        environment.console.say(
            "Imported the \(format) session of \(who.printable) into profile \(profile.name); the access token is refreshed on first use. "
                + "\(path) was not changed."
        )
        return .success
    }

    /// Whether the profile holds a session (an unreadable one counts: it is not overwritten without
    /// --force). A folder or file others could tamper with is reported as it is, with its fix.
    private static func existingSession(_ profile: Profile) async throws -> Bool {
        do {
            return try await profile.store.load(key: profile.name) != nil
        } catch let error as BearerError where error.kind == .insecureStorage {
            throw error
        } catch {
            return true
        }
    }

    private static func decode(
        format: String,
        data: Data,
        arguments: ParsedArguments,
        environment: CommandEnvironment
    ) async throws -> AuthState {
        let issuer = try ServerOptions.issuer(arguments, command: "migrate")
        var state: AuthState
        switch format {
        case "gtmoauth2":
            let server = try await ServerOptions.server(arguments, environment, command: "migrate")
            let client = try ServerOptions.client(arguments, environment, command: "migrate")
            return try LegacyFormat.gtmOAuth2.decode(data, server: server, client: client)
        case "gtmappauth":
            // The archive may name its issuer: a different --issuer is refused there.
            return try GTMAppAuthArchive.decode(data, issuer: issuer)
        case "googlesignin":
            state = try googleSignIn(data)
        default:
            state = try ApplicationDefaultCredentials.decode(data)
        }
        // These files name no server; they are Google's unless --issuer names another.
        if let issuer, issuer != state.server.issuer {
            state.server = try await ServerOptions.server(arguments, environment, command: "migrate")
        }
        return state
    }

    /// Applies `--client-id` and the client secret to a session read from `path`: a value the
    /// file lacks is taken, one that differs from the file's is refused rather than either being
    /// chosen silently.
    private static func adoptClient(
        _ arguments: ParsedArguments,
        _ environment: CommandEnvironment,
        into state: inout AuthState,
        path: String
    ) throws {
        if let id = arguments.value("client-id"), !id.isEmpty, id != state.client.id {
            throw MigrationError.conflictingSettings(
                "\(path) names the client ID \(state.client.id), but --client-id \(id) was given; "
                    + "give the file's client ID, or leave --client-id out.")
        }
        let fromFlags = arguments.value("client-secret") != nil || arguments.value("client-secret-file") != nil
        guard let secret = try ServerOptions.secret(arguments, environment, command: "migrate") else { return }
        switch state.client.secret {
        case nil:
            state.client.secret = secret
        case let recorded? where fromFlags && recorded.value != secret.value:
            throw MigrationError.conflictingSettings(
                "\(path) holds a client secret other than the one given; give the file's secret, or none.")
        default:
            break
        }
    }

    /// GoogleSignIn's keychain items as a JSON object of item names to values: `fingerprint`, the
    /// item it names, and optionally `<fingerprint>~~atrp` and `bundle_id`.
    private static func googleSignIn(_ data: Data) throws -> AuthState {
        guard let items = try? JSONDecoder().decodeRefusingDeepNesting([String: String].self, from: data) else {
            throw MigrationError.malformedItem(
                "The GoogleSignIn export is not a JSON object of keychain item names to string values; write it as "
                    + "{\"fingerprint\": …, \"<fingerprint>\": …}."
            )
        }
        guard let fingerprint = items[GoogleSignInLegacy.fingerprintItem], let persistence = items[fingerprint] else {
            throw MigrationError.malformedItem(
                "The GoogleSignIn export lacks the fingerprint item or the item it names; export both.")
        }
        guard let bundleID = items["bundle_id"] ?? GoogleSignInLegacy.bundleID(inFingerprint: fingerprint) else {
            throw MigrationError.malformedItem(
                "The GoogleSignIn export does not say the app's bundle ID; add it as \"bundle_id\".")
        }
        return try GoogleSignInLegacy.decode(
            fingerprint: fingerprint,
            bundleID: bundleID,
            persistenceString: persistence,
            additionalParameters: items[GoogleSignInLegacy.additionalParametersItem(for: fingerprint)]
        )
    }
}
