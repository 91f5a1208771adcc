import Bearer
@_spi(CommandLine) @_spi(Internals) import BearerCore
import Foundation

/// `bearer login RESOURCE-URL`: signs in to a protected resource knowing only its URL (the Model
/// Context Protocol's authorization profile): the tool finds its server, registers itself there
/// where it has no client, and saves the session, for that resource alone, in the profile.
enum ResourceLogin {
    /// The name the tool registers itself under.
    static let clientName = "bearer (command-line tool)"

    static func run(
        _ target: String,
        _ arguments: ParsedArguments,
        _ environment: CommandEnvironment
    ) async throws -> ExitCode {
        guard let resource = URL(string: target), resource.scheme != nil, resource.host != nil else {
            throw UsageError("\(target) is not an absolute URL.", command: "login")
        }
        guard !arguments.has("device"), !arguments.has("google") else {
            throw UsageError(
                "A resource URL signs in through the browser with the server the resource names; give it "
                    + "without --device and --google.", command: "login")
        }
        guard arguments.value("allow-host") == nil else {
            throw UsageError(
                "A resource's session sends its token to that resource alone; give a resource URL without "
                    + "--allow-host.", command: "login")
        }
        let profile = try Profile(arguments, environment)
        let insecureLoopback = arguments.has("allow-insecure-loopback")
        if resource.scheme?.lowercased() == "http", !insecureLoopback {
            throw UsageError(
                "\(target) is plain http; add --allow-insecure-loopback to use a local test server.",
                command: "login")
        }
        let scopes = arguments.value("scope").map(Scopes.parse)
        let store = profile.store
        try checkNoAccounts(in: profile)
        let previous = try? await store.load(key: profile.name)
        let agent = try SignInOptions.agent(
            arguments, port: try port(arguments, previous: previous, resource: resource), command: "login",
            console: environment.console)
        var configuration = AuthSession.Configuration()
        configuration.dpop = DPoPSettings(use: arguments.has("dpop") ? .required : .never, keys: PlatformDPoPKeys())
        configuration.idTokenSignatures.verifier = PlatformSignatureVerifier()
        let keyFile = try ServerOptions.clientKeyFile(arguments, command: "login")
        configuration.clientKeys = keyFile
        let audience = try ServerOptions.assertionAudience(arguments, command: "login")
        configuration.clientAssertionAudience = audience
        let identity = try await identity(
            arguments, environment, resource: resource, allowingInsecureLoopback: insecureLoopback)
        let session = try await AuthSession.signIn(
            toResource: resource, as: identity, using: agent, store: store, key: profile.name, scopes: scopes,
            challenge: nil, allowingInsecureLoopback: insecureLoopback, transport: environment.transport,
            clock: environment.clock, configuration: configuration)
        var state = await session.state
        let remembered = state
        // The registered redirect URI's port, which add-scopes must listen on again.
        if let port = state.client.redirectURI?.port { state.metadata[SignInOptions.portMetadataKey] = String(port) }
        keyFile?.record(audience: audience, in: &state)
        if state != remembered { try await session.replace(with: state) }
        let console = environment.console
        console.say("Signed in to \(state.resource?.description.printable ?? target) (profile \(profile.name)).")
        console.say("Authorization server: \(state.server.issuer.absoluteString.printable)")
        console.say("Granted scopes: \(state.grantedScopes.joined(separator: " ").printable)")
        if let key = state.dpopKey { console.say("Tokens are bound to DPoP key \(key.thumbprint).") }
        return .success
    }

    /// How the tool is known: `--client-id` at `--issuer` when given (both or neither), else
    /// registered by name. The issuer must be the one the resource names, spelled as it does:
    /// otherwise the client would silently not be used.
    private static func identity(
        _ arguments: ParsedArguments,
        _ environment: CommandEnvironment,
        resource: URL,
        allowingInsecureLoopback: Bool
    ) async throws -> ClientIdentity {
        guard arguments.value("client-id") != nil || arguments.value("issuer") != nil else {
            return ClientIdentity(name: clientName)
        }
        guard let issuer = try ServerOptions.issuer(arguments, command: "login"), arguments.value("client-id") != nil
        else {
            throw UsageError(
                "With a resource URL, give --client-id and --issuer together (the client registered at the "
                    + "server the resource names), or neither to register the tool there.", command: "login")
        }
        let metadata = try await AuthorizationServerClient(transport: environment.transport).discover(
            resource: try ProtectedResource(resource, allowingInsecureLoopback: allowingInsecureLoopback),
            allowingInsecureLoopback: allowingInsecureLoopback)
        if let named = metadata.authorizationServers.first, named.absoluteString != issuer.absoluteString {
            throw UsageError(
                "The resource names the authorization server \(named.absoluteString.printable), not "
                    + "\(issuer.absoluteString.printable); give --issuer exactly as the resource names it.",
                command: "login")
        }
        let client = try ServerOptions.client(arguments, environment, command: "login")
        return ClientIdentity(
            name: clientName,
            clients: [issuer: Client(id: client.id, secret: client.secret, authentication: client.authentication)])
    }

    /// `--port`, else the port of the profile's earlier session of this resource, whose
    /// registration names it: servers compare loopback redirect URIs port and all.
    private static func port(_ arguments: ParsedArguments, previous: AuthState?, resource: URL) throws -> UInt16 {
        let given = try SignInOptions.port(arguments, command: "login")
        guard given == 0, let previous, let named = previous.resource, named.covers(resource),
            let port = previous.client.redirectURI?.port, let free = UInt16(exactly: port)
        else { return given }
        return free
    }

    /// Refuses a profile that holds accounts other than a resource's session: a resource's
    /// session is saved under the profile's own key, where it would replace the first account.
    ///
    /// - Throws: ``UsageError`` naming the accounts and what to do.
    static func checkNoAccounts(in profile: Profile) throws {
        let accounts = try profile.accounts()
        let others = try accounts.filter { account in
            guard account.key == profile.name else { return true }
            return try profile.store.loadWithoutSuspending(key: account.key)?.resource == nil
        }
        guard others.isEmpty else {
            throw UsageError(
                "Profile \(profile.name) holds the account(s) \(AccountList.names(of: others).printable), which a "
                    + "resource's session would replace; sign in to the resource with another --profile.",
                command: "login")
        }
    }
}
