import Bearer
@_spi(CommandLine) @_spi(Internals) @_spi(Migration) import BearerCore
import BearerMigration
import Foundation

/// `bearer migrate --from FORMAT FILE`: imports a legacy session into a profile.
enum MigrateCommand: Command {
    static let formats = ["gtmoauth2", "gtmappauth", "googlesignin", "adc", "gcloud"]

    static let spec = CommandSpec(
        name: "migrate",
        valueOptions: ServerOptions.valueOptions.union(["from", "scope"]),
        repeatable: ServerOptions.repeatable,
        flags: ServerOptions.flags.union(["force"]),
        positionals: 1...1,
        positionalName: "FILE"
    )

    static let summary = "import a session saved by GTMOAuth2, GTMAppAuth, GoogleSignIn or gcloud"

    static let help = """
        usage: bearer migrate --from gtmoauth2|gtmappauth|googlesignin|adc|gcloud FILE [--profile NAME] [--force]
                              [(--issuer URL | --google) --client-id ID] [--client-secret-file FILE]
                              [--allow-insecure-loopback] [--allow-host HOST]…

        Imports legacy sessions into the profile as its accounts (bearer accounts lists them);
        FILE is left as it is. A session of a user the profile already has an account of is not
        imported over it without --force; another user's is added beside the others.

          gtmoauth2     a GTMOAuth2 persistence string (either dialect); needs --issuer or --google
                        and --client-id, which the string does not record
          gtmappauth    a GTMAppAuth keyed archive (the keychain item's data); its issuer is the
                        one it names, else its ID token's iss; one that names none needs --issuer
          googlesignin  a JSON object of GoogleSignIn's keychain items: "fingerprint", the item it
                        names, optionally "<fingerprint>~~atrp" and "bundle_id"
          adc           gcloud application default credentials: authorized_user, or external_account
                        (workload identity federation) with a file credential_source, whose
                        session is exchanged again from that file's platform token whenever it
                        is stale (and the service account's token asked for where it names one)
          gcloud        gcloud's credential database (credentials.db in its config folder): every
                        account signed in with gcloud auth login comes in as an account, named by
                        its e-mail; service accounts and other kinds are skipped and listed

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
        if format == "gcloud" {
            return try await importDatabase(at: path, profile: profile, arguments: arguments, environment: environment)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MigrationError.malformedItem("Cannot read \(path); check the path and its permissions.")
        }
        if format == "adc", ExternalAccountImport.isExternalAccount(data) {
            return try await ExternalAccountImport.run(
                data, from: path, profile: profile, arguments: arguments, environment: environment)
        }
        var state = try await decode(format: format, data: data, arguments: arguments, environment: environment)
        try adoptClient(arguments, environment, into: &state, path: path)
        let imported = try prepared(state, arguments)
        let accounts = AccountList(store: profile.store, key: profile.name)
        let existing = try await accounts.account(of: imported)
        if let existing, !arguments.has("force") {
            throw UsageError(
                "Profile \(profile.name) already has an account of \(Self.who(imported).printable) "
                    + "[\(existing.key)]; pass --force to replace it, or choose another --profile.",
                command: "migrate"
            )
        }
        if existing == nil, imported.user?.email == nil, imported.user?.subject.isEmpty != false {
            let others = try await accounts.accounts()
            guard others.isEmpty else {
                throw UsageError(
                    "\(path) names no user, so its session cannot be told apart from profile \(profile.name)'s "
                        + "accounts (\(AccountList.names(of: others).printable)); import it under another --profile.",
                    command: "migrate")
            }
        }
        try await save(imported, into: accounts, from: path)
        environment.console.say(
            "Imported the \(format) session of \(Self.who(imported).printable) into profile \(profile.name); "
                + "the access token is refreshed on first use. \(path) was not changed."
        )
        return .success
    }

    /// `state` with the server and host settings of the command line, checked.
    private static func prepared(_ state: AuthState, _ arguments: ParsedArguments) throws -> AuthState {
        var state = state
        if arguments.has("allow-insecure-loopback") { state.server.allowsInsecureLoopback = true }
        AllowedHosts.record(try AllowedHosts.given(arguments, command: "migrate"), in: &state)
        try state.server.checkSecure(state.server.tokenEndpoint)
        return state
    }

    /// Saves `imported` as its user's account, and checks that it reads back the same.
    private static func save(_ imported: AuthState, into accounts: AccountList, from path: String) async throws {
        let account = try await accounts.add(imported)
        // The account keeps its default choice, which the file did not carry.
        guard try await accounts.store.load(key: account.key)?.withoutAccountChoice == imported else {
            throw MigrationError.verificationFailed(
                "The imported session did not read back the same; \(path) is unchanged. Check the config folder's "
                    + "permissions and free space, then run migrate again with --force.")
        }
    }

    /// Imports every user account of gcloud's credential database at `path`.
    private static func importDatabase(
        at path: String,
        profile: Profile,
        arguments: ParsedArguments,
        environment: CommandEnvironment
    ) async throws -> ExitCode {
        let rows = try GcloudCredentialDatabase.rows(at: path)
        let accounts = AccountList(store: profile.store, key: profile.name)
        // The server once, for every row: gcloud's credentials are Google's unless --issuer says.
        let issuer = try ServerOptions.issuer(arguments, command: "migrate")
        let server: AuthorizationServer? =
            issuer == nil || issuer == AuthorizationServer.google.issuer
            ? nil : try await ServerOptions.server(arguments, environment, command: "migrate")
        var states: [(account: String, state: AuthState)] = []
        var skipped: [String] = []
        for row in rows {
            guard Self.credentialType(row.value) == "authorized_user" else {
                skipped.append("\(row.account) (\(Self.credentialType(row.value) ?? "unknown kind"))")
                continue
            }
            var state: AuthState
            do {
                state = try ApplicationDefaultCredentials.decode(row.value)
            } catch let error as MigrationError {
                skipped.append("\(row.account) (\(error.reason))")
                continue
            }
            state.user = AuthState.User(subject: "", email: row.account)
            if let server { state.server = server }
            // A flag that contradicts a row refuses the whole import, before anything is saved.
            try adoptClient(arguments, environment, into: &state, path: "\(path) (account \(row.account))")
            states.append((row.account, try prepared(state, arguments)))
        }
        var imported: [String] = []
        for (account, state) in states {
            if !arguments.has("force"), try await accounts.account(of: state) != nil {
                skipped.append("\(account) (already an account of the profile; --force replaces it)")
                continue
            }
            do {
                try await save(state, into: accounts, from: path)
            } catch {
                if !imported.isEmpty {
                    environment.console.say(
                        "Imported \(imported.joined(separator: ", ").printable) into profile \(profile.name) before:")
                }
                throw error
            }
            imported.append(account)
        }
        let console = environment.console
        let list = imported.isEmpty ? "no account" : imported.joined(separator: ", ")
        console.say("Imported \(list.printable) from gcloud into profile \(profile.name). \(path) was not changed.")
        if !skipped.isEmpty { console.say("Skipped: \(skipped.joined(separator: "; ").printable).") }
        return .success
    }

    /// The `type` of a gcloud credential's JSON, if it says one.
    private static func credentialType(_ value: Data) -> String? {
        struct Kind: Decodable { let type: String? }
        return (try? JSONDecoder().decodeRefusingDeepNesting(Kind.self, from: value))?.type
    }

    /// The user of `state`, for messages.
    private static func who(_ state: AuthState) -> String {
        state.user?.email ?? (state.user?.subject.isEmpty == false ? state.user?.subject : nil) ?? "an unnamed user"
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
