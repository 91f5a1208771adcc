@_spi(Bridge) import BearerCore
public import Foundation

// Resource-first sign-in and restore with the process's one shared ``URLSessionTransport`` and the
// platform's DPoP keys.
extension AuthSession {
    /// Signs in to a protected resource knowing only its URL, sending requests with the process's
    /// one shared ``URLSessionTransport``: see
    /// ``signIn(toResource:as:using:store:scopes:challenge:allowingInsecureLoopback:transport:clock:configuration:)``.
    ///
    /// - Parameters:
    ///   - resource: The resource's URL, such as an MCP server's endpoint.
    ///   - identity: How the app is known to servers.
    ///   - agent: Shows the page; its redirect URI is the one registered.
    ///   - store: Where the session and the registration are saved.
    ///   - scopes: The scopes to ask for; `nil` to take them from the resource.
    ///   - challenge: The challenge of a `401` the app already received from the resource, if any.
    ///   - allowingInsecureLoopback: Whether http on a loopback address is acceptable (tests only).
    ///   - clock: Decides freshness and expiries.
    ///   - configuration: How the session behaves; `nil` for the defaults.
    /// - Returns: The saved session.
    /// - Throws: As the call it forwards to.
    public static func signIn(
        toResource resource: URL,
        as identity: ClientIdentity,
        using agent: some AuthorizationAgent,
        store: any SessionStore,
        scopes: [String]? = nil,
        challenge: BearerChallenge? = nil,
        allowingInsecureLoopback: Bool = false,
        clock: WallClock = .system,
        configuration: Configuration? = nil
    ) async throws -> AuthSession {
        var configuration = configuration ?? Configuration()
        if configuration.dpop.keys == nil { configuration.dpop.keys = PlatformDPoPKeys.keeping(sessionsIn: store) }
        if configuration.idTokenSignatures.verifier == nil {
            configuration.idTokenSignatures.verifier = PlatformSignatureVerifier()
        }
        return try await signIn(
            toResource: resource, as: identity, using: agent, store: store, scopes: scopes, challenge: challenge,
            allowingInsecureLoopback: allowingInsecureLoopback, transport: URLSessionTransport.shared, clock: clock,
            configuration: configuration)
    }

    /// Restores the session of `resource`, sending requests with the process's one shared
    /// ``URLSessionTransport``: see ``restore(resource:from:transport:clock:configuration:)``.
    ///
    /// - Parameters:
    ///   - resource: The resource's URL.
    ///   - store: The store.
    ///   - clock: Decides freshness.
    ///   - configuration: How the session behaves; `nil` for the defaults.
    /// - Returns: The session, or `nil` when none is saved for the resource.
    /// - Throws: As the call it forwards to.
    public static func restore(
        resource: URL,
        from store: any SessionStore,
        clock: WallClock = .system,
        configuration: Configuration? = nil
    ) async throws -> AuthSession? {
        try await restore(
            resource: resource, from: store, transport: URLSessionTransport.shared, clock: clock,
            configuration: configuration, platform: .keeping(sessionsIn: store))
    }
}
