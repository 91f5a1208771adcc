import Bearer
@_spi(CommandLine) @_spi(Internals) import BearerCore
import Foundation

/// `bearer login RESOURCE-URL --via PROFILE`: a resource's session derived from another
/// profile's sign-in at the company's identity provider (MCP's enterprise-managed
/// authorization): the identity provider exchanges that profile's ID token for an ID-JAG, and the
/// resource's authorization server takes it in a JWT-bearer grant. No browser is opened.
enum DerivedLogin {
    static func run(
        _ target: String,
        via parentName: String,
        _ arguments: ParsedArguments,
        _ environment: CommandEnvironment
    ) async throws -> ExitCode {
        guard let url = URL(string: target), url.scheme != nil, url.host != nil else {
            throw UsageError("\(target) is not an absolute URL.", command: "login")
        }
        for option in ["device", "google", "dpop", "no-browser", "client-key-file"]
        where arguments.has(option) || arguments.value(option) != nil {
            throw UsageError(
                "--via makes the resource's session from profile \(parentName)'s sign-in, without a browser; give "
                    + "it without --\(option).", command: "login")
        }
        guard arguments.value("allow-host") == nil else {
            throw UsageError(
                "A resource's session sends its token to that resource alone; give a resource URL without "
                    + "--allow-host.", command: "login")
        }
        let profile = try Profile(arguments, environment)
        guard parentName != profile.name else {
            throw UsageError(
                "--via names the profile signed in at the identity provider; the resource's session needs a "
                    + "--profile of its own.", command: "login")
        }
        guard (try? FileSessionStore.checkKey(parentName)) != nil, !AccountList.isAccountKey(parentName) else {
            throw UsageError("--via \"\(parentName.printable)\" is not a profile name.", command: "login")
        }
        guard arguments.value("client-id") != nil else {
            throw UsageError(
                "--via needs --client-id (and its secret): the client the resource's authorization server knows "
                    + "the tool as for enterprise sign-in.", command: "login")
        }
        let insecureLoopback = arguments.has("allow-insecure-loopback")
        let resource = try ProtectedResource(url, allowingInsecureLoopback: insecureLoopback)
        try ResourceLogin.checkNoAccounts(in: profile)
        let discovery = AuthorizationServerClient(transport: environment.transport)
        let metadata = try await discovery.discover(resource: resource, allowingInsecureLoopback: insecureLoopback)
        let server = try await discovery.discoverAuthorizationServer(
            of: metadata, allowingInsecureLoopback: insecureLoopback)
        if let issuer = try ServerOptions.issuer(arguments, command: "login"), issuer != server.issuer {
            throw UsageError(
                "The resource names the authorization server \(server.issuer.absoluteString.printable), not "
                    + "\(issuer.absoluteString.printable).", command: "login")
        }
        let client = try ServerOptions.client(arguments, environment, command: "login")
        let parentKey = try await AccountList(store: profile.store, key: parentName).defaultAccount()?.key ?? parentName
        let scopes = arguments.value("scope").map(Scopes.parse) ?? metadata.scopesSupported ?? []
        // The parent is restored with this configuration: a parent whose client signs assertions
        // (--client-key-file at its login) signs them with its key file, now and at each refresh.
        let parentState = try? profile.store.loadWithoutSuspending(key: parentKey)
        let parentKeyFile = parentState.flatMap(ClientKeyFile.init(recordedIn:))
        var configuration = AuthSession.Configuration()
        configuration.idTokenSignatures.verifier = PlatformSignatureVerifier()
        configuration.clientKeys = parentKeyFile
        if let parentState { configuration.clientAssertionAudience = ClientKeyFile.audience(recordedIn: parentState) }
        let session = try await AuthSession.derive(
            .identityAssertion(from: parentKey, scopes: scopes), at: server,
            // With its id in the body too, which the MCP SDK's servers require beside HTTP Basic.
            as: Client(
                id: client.id, secret: client.secret,
                authentication: client.authentication ?? (client.secret == nil ? nil : .clientSecretBasic)),
            resource: resource, store: profile.store, key: profile.name, transport: environment.transport,
            clock: environment.clock, configuration: configuration)
        var state = await session.state
        if let parentKeyFile, let parentState {
            parentKeyFile.record(audience: ClientKeyFile.audience(recordedIn: parentState), in: &state)
            try await session.replace(with: state)
        }
        let console = environment.console
        console.say(
            "Signed in to \(resource.description.printable) (profile \(profile.name)) through profile \(parentName)'s "
                + "identity provider.")
        console.say("Authorization server: \(state.server.issuer.absoluteString.printable)")
        console.say("Granted scopes: \(state.grantedScopes.joined(separator: " ").printable)")
        return .success
    }
}
