#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension AuthSession {
    /// Signs in with one call: builds the authorization request, shows it with `agent`, checks the
    /// redirect, exchanges the code, and saves the session before returning it, so a sign-in is
    /// never left unsaved.
    ///
    /// ```swift
    /// let session = try await AuthSession.signIn(
    ///     to: .google, as: client, scopes: ["openid", "email"],
    ///     using: ASWebAuthenticationSessionAgent(anchor: window), store: KeychainSessionStore())
    /// ```
    ///
    /// When the grant has no ID token but `openid` was granted, the user is read from the server's
    /// UserInfo endpoint, if it has one. Where the server takes pushed authorization requests, the
    /// request is pushed there first (see ``Configuration/pushedAuthorization``).
    ///
    /// - Parameters:
    ///   - server: The authorization server, such as ``AuthorizationServer/google``.
    ///   - client: The client; its redirect URI is used unless the agent has its own.
    ///   - scopes: The scopes to ask for.
    ///   - agent: Shows the page: see ``AuthorizationAgent``.
    ///   - store: Where the session is saved.
    ///   - key: The key it is saved under (`"default"`); a session saved there before is replaced.
    ///   - additionalParameters: Extra authorization parameters, such as `login_hint` or `prompt`.
    ///   - tokenParameters: Extra parameters of the code exchange, such as RFC 8707 `resource` or
    ///     an `audience`; they cannot replace the standard ones.
    ///   - transport: Sends token requests and the session's requests.
    ///   - clock: Decides freshness, and the skew allowed when checking ID tokens.
    ///   - configuration: Where tokens may go, and more; `nil` for ``Configuration/recommended(for:)``.
    /// - Returns: The saved session.
    /// - Throws: `CancellationError` when the user closed the page or the task was cancelled
    ///   (nothing is saved then; show nothing); ``OAuthError`` when the server refused
    ///   (`access_denied` when the user declined, or refused the pushed request); ``BearerError``
    ///   when the request could not be pushed (nothing is shown then), the redirect fails a check,
    ///   the exchange fails, the agent cannot show the page, or the session cannot be saved (its
    ///   grant is then revoked, so no unsaved token stays valid).
    public static func signIn(
        to server: AuthorizationServer,
        as client: Client,
        scopes: [String],
        using agent: some AuthorizationAgent,
        store: any SessionStore,
        key: String = "default",
        additionalParameters: [String: String] = [:],
        tokenParameters: [String: String] = [:],
        transport: any HTTPTransport,
        clock: WallClock = .system,
        configuration: Configuration? = nil
    ) async throws -> AuthSession {
        try await signIn(
            to: server, as: client, scopes: scopes, using: agent, store: store, key: key,
            additionalParameters: additionalParameters, tokenParameters: tokenParameters, transport: transport,
            clock: clock, configuration: configuration ?? .recommended(for: server), resource: nil)
    }

    /// Signs in as the public call does; a sign-in for `resource` names it in the authorization
    /// request and the code exchange (RFC 8707 §2.1), and its session keeps it.
    static func signIn(
        to server: AuthorizationServer,
        as client: Client,
        scopes: [String],
        using agent: some AuthorizationAgent,
        store: any SessionStore,
        key: String,
        additionalParameters: [String: String],
        tokenParameters: [String: String],
        transport: any HTTPTransport,
        clock: WallClock,
        configuration: Configuration,
        resource: ProtectedResource?
    ) async throws -> AuthSession {
        let state = try await signedInState(
            to: server, as: client, scopes: scopes, using: agent, additionalParameters: additionalParameters,
            tokenParameters: tokenParameters, transport: transport, clock: clock, configuration: configuration,
            resource: resource)
        return try await saveOrRevoke(
            state, to: store, key: key, transport: transport, clock: clock, configuration: configuration)
    }

    /// The session a browser sign-in grants, not yet saved: what ``signIn(to:as:scopes:using:store:key:additionalParameters:tokenParameters:transport:clock:configuration:)``
    /// saves, and ``AccountList`` saves under the key of the user who signed in.
    static func signedInState(
        to server: AuthorizationServer,
        as client: Client,
        scopes: [String],
        using agent: some AuthorizationAgent,
        additionalParameters: [String: String],
        tokenParameters: [String: String],
        transport: any HTTPTransport,
        clock: WallClock,
        configuration: Configuration,
        resource: ProtectedResource?
    ) async throws -> AuthState {
        do {
            let serverClient = AuthorizationServerClient(
                transport: transport, clock: clock, configuration: configuration)
            try serverClient.checkSignIn(as: client, at: server, pushing: configuration.pushedAuthorization)
            // A DPoP sign-in's key is made first, so the code is bound to it too (RFC 9449 §10).
            let proofKey = try await serverClient.newGrantKey(at: server)
            var parameters = additionalParameters
            var tokenParameters = tokenParameters
            if let resource {
                parameters["resource"] = resource.description
                tokenParameters["resource"] = resource.description
            }
            if let proofKey { parameters["dpop_jkt"] = proofKey.record.thumbprint }
            // Signed (RFC 9101) and pushed first (RFC 9126) where the configuration and the server
            // say so: the browser then carries only the server's reference to it.
            let (request, response) = try await serverClient.presenting(
                AuthorizationRequest(
                    server: server, client: client, scopes: scopes, redirectURI: agent.redirectURI,
                    additionalParameters: parameters),
                with: agent, signing: configuration.requestObjects, pushing: configuration.pushedAuthorization)
            var granted = try await serverClient.exchange(
                response, for: request, additionalParameters: tokenParameters, provingWith: proofKey)
            granted.resource = resource
            return await serverClient.describingUser(of: granted)
        } catch {
            throw configuration.rewriteError(error)
        }
    }

    /// Signs in with the device authorization grant (RFC 8628), for TVs and tools without a
    /// browser: the user opens an address on another device and types a code. The session is
    /// saved before it is returned, as with ``signIn(to:as:scopes:using:store:key:additionalParameters:tokenParameters:transport:clock:configuration:)``.
    ///
    /// ```swift
    /// let session = try await AuthSession.signInWithDeviceCode(to: server, as: Client(id: "my-tv-app"),
    ///                                                          scopes: ["email"], store: store) { progress in
    ///     if case .codeIssued(let code) = progress { await screen.show(code.userCode, at: code.verificationURI) }
    /// }
    /// ```
    ///
    /// `progress` is awaited, so it may update a UI on the main actor before polling goes on.
    ///
    /// - Parameters:
    ///   - server: The server; it must have a device authorization endpoint.
    ///   - client: The client.
    ///   - scopes: The scopes to ask for.
    ///   - store: Where the session is saved.
    ///   - key: The key it is saved under.
    ///   - transport: Sends the requests.
    ///   - clock: Gives the time, and the skew allowed when checking ID tokens.
    ///   - configuration: Where tokens may go, and more; `nil` for ``Configuration/recommended(for:)``.
    ///   - progress: Told the code to show, each wait and each slow-down, as values a UI can show;
    ///     awaited each time.
    /// - Returns: The saved session.
    /// - Throws: `CancellationError` when the task was cancelled (the app's way to stop waiting);
    ///   ``OAuthError`` `access_denied` when the user declined; ``BearerError/Kind/timedOut``
    ///   when the code expired; ``BearerError/Kind/insecureEndpoint`` when the verification address is
    ///   not https; the store's error.
    public static func signInWithDeviceCode(
        to server: AuthorizationServer,
        as client: Client,
        scopes: [String],
        store: any SessionStore,
        key: String = "default",
        transport: any HTTPTransport,
        clock: WallClock = .system,
        configuration: Configuration? = nil,
        progress: @escaping @Sendable (DeviceSignInProgress) async -> Void
    ) async throws -> AuthSession {
        let configuration = configuration ?? .recommended(for: server)
        let state = try await deviceSignedInState(
            to: server, as: client, scopes: scopes, transport: transport, clock: clock, configuration: configuration,
            progress: progress)
        return try await saveOrRevoke(
            state, to: store, key: key, transport: transport, clock: clock, configuration: configuration)
    }

    /// The session a device sign-in grants, not yet saved.
    static func deviceSignedInState(
        to server: AuthorizationServer,
        as client: Client,
        scopes: [String],
        transport: any HTTPTransport,
        clock: WallClock,
        configuration: Configuration,
        progress: @escaping @Sendable (DeviceSignInProgress) async -> Void
    ) async throws -> AuthState {
        do {
            let serverClient = AuthorizationServerClient(
                transport: transport, clock: clock, configuration: configuration)
            try configuration.securityProfile.checkDeviceSignIn()
            let proofKey = try await serverClient.newGrantKey(at: server)
            let device = try await serverClient.startDeviceAuthorization(at: server, as: client, scopes: scopes)
            await progress(.codeIssued(device.verification))
            let granted = try await serverClient.waitForApproval(of: device, progress: progress, provingWith: proofKey)
            return await serverClient.describingUser(of: granted)
        } catch {
            throw configuration.rewriteError(error)
        }
    }

    /// Saves a new sign-in; when it cannot be saved, revokes its grant (best effort) before
    /// reporting the store's error, so no token the app cannot keep stays valid at the server.
    static func saveOrRevoke(
        _ state: AuthState,
        to store: any SessionStore,
        key: String,
        transport: any HTTPTransport,
        clock: WallClock,
        configuration: Configuration
    ) async throws -> AuthSession {
        do {
            return try await save(
                state, to: store, key: key, transport: transport, clock: clock, configuration: configuration)
        } catch {
            _ = await AuthorizationServerClient(transport: transport, clock: clock, configuration: configuration)
                .revokeEveryToken(of: state)
            throw error
        }
    }
}

extension AuthorizationServerClient {
    /// `state` with its user read from the UserInfo endpoint, when the grant has none but `openid`
    /// was granted and its tokens are not for one protected resource; unchanged when that fails (the tokens matter more than the name; an app reads
    /// the error with ``AuthSession/userInfo()``).
    func describingUser(of state: AuthState) async -> AuthState {
        guard state.user == nil, state.resource == nil, state.hasGranted("openid"),
            state.server.userinfoEndpoint != nil,
            let user = try? await userInfo(for: state)
        else { return state }
        var described = state
        described.user = user
        return described
    }
}
