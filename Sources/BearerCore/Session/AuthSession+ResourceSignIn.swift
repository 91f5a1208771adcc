#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

// Resource-first sessions: the Model Context Protocol authorization profile (RFC 9728, RFC 8414,
// RFC 8707, RFC 7591 and Client ID Metadata Documents).
extension AuthSession {
    /// Signs in to a protected resource knowing only its URL: finds its authorization server,
    /// gets a client there, signs in for that resource with `agent`, and saves the session before
    /// returning it.
    ///
    /// ```swift
    /// let session = try await AuthSession.signIn(
    ///     toResource: URL(string: "https://mcp.example.com/mcp")!,
    ///     as: ClientIdentity(name: "Example Agent"),
    ///     using: LoopbackAgent(opener: .systemBrowser), store: store, transport: transport)
    /// let (answer) = try await session.data(for: TransportRequest(url: toolsURL))
    /// ```
    ///
    /// 1. The resource's metadata (RFC 9728) is read from the `resource_metadata` of `challenge`,
    ///    or of the `401` the resource answers a request without a token, else from its
    ///    well-known URLs; it must describe this resource.
    /// 2. Its first authorization server is discovered in the profile's order, and must name
    ///    itself exactly as the resource does.
    /// 3. The client is the one `identity` configured for that server; else its Client ID
    ///    Metadata Document where the server reads them; else the client registered there before
    ///    (kept in `store`, per server) while its redirect URI and secret still hold; else a new
    ///    registration (RFC 7591), kept in `store`.
    /// 4. The scopes are `scopes`, else the challenge's `scope`, else the resource's
    ///    `scopes_supported`; `offline_access` is asked for where the server lists it, and only there.
    /// 5. The authorization request, the code exchange and every later refresh name the resource
    ///    (RFC 8707), and the session sends its tokens to that resource alone.
    ///
    /// The session is saved under a key made of the resource and the server (see
    /// ``restore(resource:from:transport:clock:configuration:)``). A session of the same resource
    /// from another server (the resource moved) is revoked and removed once the new one is saved.
    ///
    /// - Parameters:
    ///   - resource: The resource's URL, such as an MCP server's endpoint.
    ///   - identity: How the app is known to servers: see ``ClientIdentity``.
    ///   - agent: Shows the page; its redirect URI is the one registered.
    ///   - store: Where the session and the registration are saved.
    ///   - scopes: The scopes to ask for; `nil` to take them from the resource.
    ///   - challenge: The challenge of a `401` the app already received from the resource, if any.
    ///   - allowingInsecureLoopback: Whether http on a loopback address is acceptable for the
    ///     resource, its metadata and its server (tests and local development only).
    ///   - transport: Sends every request.
    ///   - clock: Decides freshness and expiries.
    ///   - configuration: How the session behaves; `nil` for the defaults.
    /// - Returns: The saved session.
    /// - Throws: ``BearerError/Kind/resourceMismatch``, ``BearerError/Kind/issuerMismatch``,
    ///   ``BearerError/Kind/invalidDiscoveryDocument`` or ``BearerError/Kind/insecureEndpoint`` when
    ///   discovery fails a check (nothing is sent to the servers it names);
    ///   ``BearerError/Kind/registrationFailed`` when no client can be had; else as
    ///   ``signIn(to:as:scopes:using:store:key:additionalParameters:tokenParameters:transport:clock:configuration:)``.
    public static func signIn(
        toResource resource: URL,
        as identity: ClientIdentity,
        using agent: some AuthorizationAgent,
        store: any SessionStore,
        scopes: [String]? = nil,
        challenge: BearerChallenge? = nil,
        allowingInsecureLoopback: Bool = false,
        transport: any HTTPTransport,
        clock: WallClock = .system,
        configuration: Configuration? = nil
    ) async throws -> AuthSession {
        try await signIn(
            toResource: resource, as: identity, using: agent, store: store, key: nil, scopes: scopes,
            challenge: challenge, allowingInsecureLoopback: allowingInsecureLoopback, transport: transport,
            clock: clock, configuration: configuration ?? Configuration())
    }

    /// Signs in to a resource as the public call does, saving the session under `key` (the
    /// `bearer` tool's profile), or under the resource's own key when `key` is `nil`.
    @_spi(CommandLine) public static func signIn(
        toResource resource: URL,
        as identity: ClientIdentity,
        using agent: some AuthorizationAgent,
        store: any SessionStore,
        key: String?,
        scopes: [String]?,
        challenge: BearerChallenge?,
        allowingInsecureLoopback: Bool,
        transport: any HTTPTransport,
        clock: WallClock,
        configuration: Configuration
    ) async throws -> AuthSession {
        let found: (resource: ProtectedResource, server: AuthorizationServer, client: Client, scopes: [String])
        do {
            let resource = try ProtectedResource(resource, allowingInsecureLoopback: allowingInsecureLoopback)
            let serverClient = AuthorizationServerClient(
                transport: transport, clock: clock, configuration: configuration)
            var challenge = challenge
            if challenge == nil { challenge = try await serverClient.challenge(of: resource) }
            let metadata = try await serverClient.discover(
                resource: resource, challenge: challenge, allowingInsecureLoopback: allowingInsecureLoopback)
            let server = try await serverClient.discoverAuthorizationServer(
                of: metadata, allowingInsecureLoopback: allowingInsecureLoopback)
            guard let redirectURI = agent.redirectURI else {
                throw BearerError.invalidConfiguration(
                    "The agent has no redirect URI to register; use an agent with one, such as LoopbackAgent.")
            }
            let registrations = ClientRegistrationStore(store: store)
            let (client, isNew) = try await serverClient.client(
                of: identity, at: server, redirectURI: redirectURI,
                registered: await registrations.client(at: server))
            if isNew { await registrations.keep(client, at: server) }
            found = (
                resource, server, client,
                scopes ?? ResourceScopes.toAskFor(challenge: challenge, metadata: metadata, server: server)
            )
        } catch {
            throw configuration.rewriteError(error)
        }
        let key = key ?? ResourceSessionKeys.session(for: found.resource, issuer: found.server.issuer)
        let session = try await signIn(
            to: found.server, as: found.client, scopes: found.scopes, using: agent, store: store, key: key,
            additionalParameters: [:], tokenParameters: [:], transport: transport, clock: clock,
            configuration: configuration, resource: found.resource)
        await retireSessions(
            of: found.resource, otherThan: key, in: store, transport: transport, clock: clock,
            dpop: configuration.dpop)
        return session
    }

    /// Restores the session of `resource` saved by
    /// ``signIn(toResource:as:using:store:scopes:challenge:allowingInsecureLoopback:transport:clock:configuration:)``.
    ///
    /// - Parameters:
    ///   - resource: The resource's URL, in any spelling of its canonical URI.
    ///   - store: The store.
    ///   - transport: Sends requests.
    ///   - clock: Decides freshness.
    ///   - configuration: How the session behaves; `nil` for the defaults.
    /// - Returns: The session, or `nil` when none is saved for the resource.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` for a URL that cannot name a resource;
    ///   the store's error when the saved item cannot be read (it is left in place).
    public static func restore(
        resource: URL,
        from store: any SessionStore,
        transport: any HTTPTransport,
        clock: WallClock = .system,
        configuration: Configuration? = nil
    ) async throws -> AuthSession? {
        try await restore(
            resource: resource, from: store, transport: transport, clock: clock, configuration: configuration,
            platform: nil)
    }

    /// Restores the session of `resource`, with `platform`'s DPoP keys and signature verifier where the
    /// configuration has none. Each of the resource's saved sessions is read once.
    @_spi(Bridge) public static func restore(
        resource: URL,
        from store: any SessionStore,
        transport: any HTTPTransport,
        clock: WallClock,
        configuration: Configuration?,
        platform: PlatformCryptography?
    ) async throws -> AuthSession? {
        let saved: (key: String, state: AuthState)?
        do {
            saved = try await savedSession(of: resource, in: store)
        } catch {
            throw (configuration ?? Configuration()).rewriteError(error)
        }
        guard let saved else { return nil }
        return restoring(
            saved.state, key: saved.key, from: store, transport: transport, clock: clock,
            configuration: configuration, platform: platform)
    }

    /// `resource`'s saved session and its key: the one that can authorize, else any of that
    /// resource.
    ///
    /// - Throws: The store's error for a session of the resource that cannot be read, when no
    ///   other can be (it is left in place).
    private static func savedSession(of resource: URL, in store: any SessionStore) async throws
        -> (key: String, state: AuthState)?
    {
        let resource = try ProtectedResource(resource, allowingInsecureLoopback: true)
        var usable: (key: String, state: AuthState)?
        var problem: (any Error)?
        for key in try await store.keys() where ResourceSessionKeys.isSession(key, of: resource) {
            let stored: AuthState?
            do {
                stored = try await store.load(key: key)
            } catch {
                problem = problem ?? error
                continue
            }
            guard let stored, stored.resource == resource else { continue }
            if stored.canAuthorize { return (key, stored) }
            usable = usable ?? (key, stored)
        }
        if let usable { return usable }
        if let problem { throw problem }
        return nil
    }

    /// Revokes and removes the sessions of `resource` other than `key`'s: those from a server the
    /// resource no longer names. One whose tokens cannot be revoked is moved to a retired key
    /// (``ResourceSessionKeys/retired(_:)``), out of the resource's way: tokens are never dropped
    /// unrevoked. One that cannot be read is left as it is.
    private static func retireSessions(
        of resource: ProtectedResource,
        otherThan key: String,
        in store: any SessionStore,
        transport: any HTTPTransport,
        clock: WallClock,
        dpop: DPoPSettings
    ) async {
        guard let keys = try? await store.keys() else { return }
        for other in keys where other != key && ResourceSessionKeys.isSession(other, of: resource) {
            _ = try? await store.withExclusiveAccess(to: other) { access in
                guard let stale = try? await access.load(), stale.resource == resource else { return }
                let client = AuthorizationServerClient(transport: transport, clock: clock, dpop: dpop)
                let outcome = await client.revokeEveryToken(of: stale)
                if outcome != .revoked, stale.accessToken != nil || stale.refreshToken != nil {
                    // Moved only to a free place: a session retired there before is kept too.
                    let retiring = access.storeForOtherKeys(else: store)
                    let moved = try await retiring.withExclusiveAccess(to: ResourceSessionKeys.retired(other)) {
                        place in
                        guard try await place.load() == nil else { return false }
                        try await place.save(stale, replacing: nil)
                        return true
                    }
                    guard moved else { return }
                }
                try await access.remove()
            }
        }
    }
}

/// The scopes a resource-first sign-in asks for.
enum ResourceScopes {
    /// The challenge's `scope`, else the resource's `scopes_supported`; `offline_access` added
    /// where the server lists it and removed where it does not.
    static func toAskFor(
        challenge: BearerChallenge?,
        metadata: ProtectedResourceMetadata,
        server: AuthorizationServer
    ) -> [String] {
        let named = challenge?.scopes ?? []
        var scopes = named.isEmpty ? metadata.scopesSupported ?? [] : named
        scopes.removeAll { $0 == "offline_access" }
        if server.scopesSupported?.contains("offline_access") == true { scopes.append("offline_access") }
        return Scopes.deduplicated(scopes)
    }
}
