import Bearer
@_spi(CommandLine) @_spi(Internals) import BearerCore
import Foundation

/// `bearer login`: signs in through the browser (loopback redirect, or a pasted address with
/// `--no-browser`) or the device flow.
enum LoginCommand: Command {
    static let spec = CommandSpec(
        name: "login",
        valueOptions: ServerOptions.valueOptions.union(SignInOptions.valueOptions).union([
            "scope", "client-key-file", "assertion-audience", "via",
        ]),
        repeatable: ServerOptions.repeatable,
        flags: ServerOptions.flags.union(SignInOptions.flags).union(["device", "dpop"]),
        positionals: 0...1,
        positionalName: "RESOURCE-URL"
    )

    static let summary = "sign in through the browser (loopback redirect) or with --device"

    static let help = """
        usage: bearer login (--issuer URL | --google) --client-id ID [--client-secret-file FILE | --client-key-file FILE]
                            [--assertion-audience issuer|endpoint] --scope "A B …"
                            [--profile NAME] \(SignInOptions.usage)
                            [--device] [--dpop] [--allow-insecure-loopback] [--allow-host HOST]…
               bearer login RESOURCE-URL [--scope "A B …"] [--issuer URL --client-id ID] [--client-key-file FILE]
                            [--assertion-audience issuer|endpoint] [--profile NAME] \(SignInOptions.usage) [--dpop] [--allow-insecure-loopback]
               bearer login RESOURCE-URL --via PROFILE --client-id ID [--client-secret-file FILE] [--scope "A B …"]
                            [--profile NAME] [--allow-insecure-loopback]

        Signs in and saves the session with its server and client settings in the profile, as
        the account of the user who signed in: a user not yet in the profile is added beside the
        others (bearer accounts lists them), the same user signing in again updates that account.
        The account signed in becomes the profile's default; --account NAME (or $BEARER_ACCOUNT)
        picks another for one command.

        Given a protected resource's URL (such as an MCP server's endpoint), the tool finds the
        resource's authorization server from its metadata (RFC 9728), registers itself there
        (RFC 7591; the registration is kept and reused) unless --issuer and --client-id name a
        client, and asks for the scopes the resource lists unless --scope is given. The session
        is for that resource alone: every refresh names it (RFC 8707), and bearer curl sends its
        token to no other URL.

        With --via PROFILE (MCP's enterprise-managed authorization), no browser is opened: PROFILE's
        session at the company's identity provider exchanges its ID token there for an ID-JAG
        naming the resource's authorization server (RFC 8693), which that server takes in a
        JWT-bearer grant (RFC 7523) from --client-id, the client it knows the tool as. The session
        is made again the same way whenever it is stale, and needs a new sign-in whenever PROFILE
        does; bearer logout --profile PROFILE removes it too.

        \(SignInOptions.help)

        With --device, the device flow (RFC 8628) is used instead: open the printed address on any
        device and enter the code.

        With --dpop, the grant is bound to a new key (DPoP, RFC 9449): the key is saved with the
        tokens in the profile's session file, every request carries a proof signed by it, and a
        stolen token is useless without it. The sign-in fails (and its grant is revoked) if the
        server answers with a Bearer token. bearer curl sends the proofs; bearer proof prints the
        headers for another HTTP client; bearer token warns that its token needs one.

        Plain-http endpoints are refused unless they are on a loopback address and
        --allow-insecure-loopback is given (for local test servers; it is saved with the profile).

        A confidential client's secret is read from --client-secret-file FILE (its first line) or
        $BEARER_CLIENT_SECRET; --client-secret S also works but shows the secret to every local
        user in the process list. A client registered with a key instead (private_key_jwt, RFC 7523)
        signs in with --client-key-file FILE, the key bearer client-key made; the profile remembers
        the file for its refreshes. Its assertions name the issuer as their audience, as FAPI 2.0
        asks; --assertion-audience endpoint names each endpoint's URL instead, for a server that
        accepts nothing else (glewlwyd 2.7).

        Tokens go only to the issuer's host (Google: *.googleapis.com) and to each --allow-host
        HOST (repeatable; *.example.com for subdomains), which is saved with the profile.
        """

    static func run(_ arguments: ParsedArguments, _ environment: CommandEnvironment) async throws -> ExitCode {
        if let resource = arguments.positionals.first, let parent = arguments.value("via") {
            return try await DerivedLogin.run(resource, via: parent, arguments, environment)
        }
        guard arguments.value("via") == nil else {
            throw UsageError(
                "--via goes with a resource URL: bearer login RESOURCE-URL --via PROFILE.", command: "login")
        }
        if let resource = arguments.positionals.first {
            return try await ResourceLogin.run(resource, arguments, environment)
        }
        let profile = try Profile(arguments, environment)
        guard let scopeText = arguments.value("scope"), !Scopes.parse(scopeText).isEmpty else {
            throw UsageError("--scope is required: the scopes to ask for, separated by spaces.", command: "login")
        }
        let scopes = Scopes.parse(scopeText)
        _ = try SignInOptions.timeout(arguments, command: "login")
        let port = try SignInOptions.port(arguments, command: "login")
        let client = try ServerOptions.client(arguments, environment, command: "login")
        let keyFile = try ServerOptions.clientKeyFile(arguments, command: "login")
        let audience = try ServerOptions.assertionAudience(arguments, command: "login")
        let server = try await ServerOptions.server(arguments, environment, command: "login")
        let allowedHosts = try AllowedHosts.given(arguments, command: "login")
        let console = environment.console

        let accounts = AccountList(store: profile.store, key: profile.name)
        var configuration = AuthSession.Configuration.recommended(for: server)
        configuration.dpop = DPoPSettings(use: arguments.has("dpop") ? .required : .never, keys: PlatformDPoPKeys())
        configuration.idTokenSignatures.verifier = PlatformSignatureVerifier()
        configuration.clientKeys = keyFile
        configuration.clientAssertionAudience = audience
        let session: AuthSession
        if arguments.has("device") {
            guard !arguments.has("no-browser") else {
                throw UsageError("Give either --device or --no-browser, not both.", command: "login")
            }
            session = try await accounts.signInWithDeviceCode(
                to: server,
                as: client,
                scopes: scopes,
                makingDefault: true,
                transport: environment.transport,
                clock: environment.clock,
                configuration: configuration,
                progress: DeviceSignIn.reporter(
                    opening: arguments.has("no-open") ? nil : .some(arguments.value("open-with")),
                    console: console
                )
            )
        } else {
            let agent = try SignInOptions.agent(arguments, port: port, command: "login", console: console)
            session = try await accounts.signIn(
                to: server,
                as: client,
                scopes: scopes,
                using: agent,
                additionalParameters: signInParameters(for: server, profile: profile),
                makingDefault: true,
                transport: environment.transport,
                clock: environment.clock,
                configuration: configuration
            )
        }
        var state = await session.state
        let remembered = state
        AllowedHosts.record(allowedHosts, in: &state)
        keyFile?.record(audience: audience, in: &state)
        if !arguments.has("device") { SignInOptions.record(port: port, given: arguments, in: &state) }
        if state != remembered { try await session.replace(with: state) }
        let user = state.user?.email ?? state.user?.subject ?? "an unnamed user"
        console.say("Signed in as \(user.printable) (profile \(profile.name)).")
        let mine = try await accounts.account(of: state)?.key
        let others = try await accounts.accounts().filter { $0.key != mine }
        if !others.isEmpty {
            console.say(
                "It is now the profile's default account; \(others.count) other account(s) kept "
                    + "(bearer accounts \(profile.flag)lists them; --account NAME picks one per command).")
        }
        console.say("Granted scopes: \(state.grantedScopes.joined(separator: " ").printable)")
        if let key = state.dpopKey { console.say("Tokens are bound to DPoP key \(key.thumbprint).") }
        return .success
    }

    /// The authorization parameters of a sign-in at `server`: Google's `access_type=offline`, and
    /// when the profile already has an account, `prompt=select_account`, so the user may pick
    /// another account than the one the browser is signed in to.
    static func signInParameters(for server: AuthorizationServer, profile: Profile) -> [String: String] {
        guard server.isGoogle else { return [:] }
        var parameters = ["access_type": "offline"]
        if (try? profile.accounts().isEmpty) == false { parameters["prompt"] = "select_account" }
        return parameters
    }
}
