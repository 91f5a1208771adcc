#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A web sign-in in two calls, for servers whose instances share no memory: one instance begins
/// it, any instance finishes it (see ``PendingSignIn``).
extension AuthSession {
    /// Begins a web sign-in that any instance can finish: makes the authorization request, with
    /// fresh `state`, `nonce` and PKCE verifier.
    ///
    /// - Parameters:
    ///   - server: The authorization server.
    ///   - client: The client; its redirect URI is used unless `redirectURI` is given.
    ///   - scopes: The scopes to ask for.
    ///   - key: The key the session will be saved under: the app's signed-in user (or browser
    ///     session) asking to connect an account. Only a finish for the same key is accepted.
    ///   - redirectURI: The redirect URI registered for the server's callback, when not the client's.
    ///   - additionalParameters: Extra authorization parameters, such as `login_hint` or `prompt`.
    ///   - tokenParameters: Extra parameters of the code exchange, such as RFC 8707 `resource`.
    ///   - clock: Gives the creation time.
    /// - Returns: The pending sign-in: send the browser to its ``PendingSignIn/authorizationURL``
    ///   and keep it, for example with ``PendingSignInStore/savePendingSignIn(_:)``.
    /// - Throws: ``BearerError`` as the authorization request's checks do: no redirect URI, an
    ///   extra parameter naming a standard one, a malformed scope, an endpoint that is not https.
    public static func beginSignIn(
        to server: AuthorizationServer,
        as client: Client,
        scopes: [String],
        key: String,
        redirectURI: URL? = nil,
        additionalParameters: [String: String] = [:],
        tokenParameters: [String: String] = [:],
        clock: WallClock = .system
    ) throws -> PendingSignIn {
        guard server.requiresPushedAuthorizationRequests != true, server.requiresSignedRequestObjects != true else {
            throw BearerError.invalidConfiguration(
                "\(server.issuer.absoluteString) requires pushed authorization requests (RFC 9126) or signed request "
                    + "objects (RFC 9101), which this call cannot send; begin the sign-in with the call that takes a "
                    + "transport. Nothing was sent.")
        }
        let request = try AuthorizationRequest(
            server: server, client: client, scopes: scopes, redirectURI: redirectURI,
            additionalParameters: additionalParameters)
        return PendingSignIn(request: request, key: key, createdAt: clock.now(), tokenParameters: tokenParameters)
    }

    /// Begins a web sign-in that any instance can finish, pushing its request to the server first
    /// where the configuration and the server's metadata say so (RFC 9126): the pending sign-in's
    /// ``PendingSignIn/authorizationURL`` then carries only the server's `request_uri`, which expires
    /// as the server said (``PendingSignIn/pushedRequestExpiresAt``); begin again after that.
    ///
    /// - Parameters:
    ///   - server: The authorization server.
    ///   - client: The client; its redirect URI is used unless `redirectURI` is given.
    ///   - scopes: The scopes to ask for.
    ///   - key: The key the session will be saved under (see the call without a transport).
    ///   - redirectURI: The redirect URI registered for the server's callback, when not the client's.
    ///   - additionalParameters: Extra authorization parameters, such as `login_hint` or `prompt`.
    ///   - tokenParameters: Extra parameters of the code exchange, such as RFC 8707 `resource`.
    ///   - transport: Sends the pushed request.
    ///   - clock: Gives the creation time, and the pushed request's expiry.
    ///   - configuration: When requests are pushed; `nil` for ``Configuration/recommended(for:)``.
    /// - Returns: The pending sign-in, to keep and finish as with the call without a transport.
    /// - Throws: What the authorization request's checks throw; ``OAuthError`` or ``BearerError``
    ///   when the request was to be pushed and could not be (nothing is to be shown then).
    public static func beginSignIn(
        to server: AuthorizationServer,
        as client: Client,
        scopes: [String],
        key: String,
        redirectURI: URL? = nil,
        additionalParameters: [String: String] = [:],
        tokenParameters: [String: String] = [:],
        transport: any HTTPTransport,
        clock: WallClock = .system,
        configuration: Configuration? = nil
    ) async throws -> PendingSignIn {
        let configuration = configuration ?? .recommended(for: server)
        do {
            let request = try await AuthorizationServerClient(
                transport: transport, clock: clock, configuration: configuration
            ).preparing(
                AuthorizationRequest(
                    server: server, client: client, scopes: scopes, redirectURI: redirectURI,
                    additionalParameters: additionalParameters),
                signing: configuration.requestObjects, pushing: configuration.pushedAuthorization)
            return PendingSignIn(request: request, key: key, createdAt: clock.now(), tokenParameters: tokenParameters)
        } catch {
            throw configuration.rewriteError(error)
        }
    }

    /// Finishes a web sign-in begun by ``beginSignIn(to:as:scopes:key:redirectURI:additionalParameters:tokenParameters:clock:)``
    /// on any instance: takes the pending sign-in named by the callback's `state` out of
    /// `pendingSignIns` (so the same callback cannot be finished twice), checks the callback
    /// against it, exchanges the code and saves the session before returning it.
    ///
    /// - Parameters:
    ///   - redirect: The callback URL the browser arrived with.
    ///   - pendingSignIns: Where the pending sign-in was kept.
    ///   - store: Where the session is saved.
    ///   - key: The key it is saved under: the key the sign-in began for (the app's signed-in user
    ///     or browser session handling the callback); a session saved there before is replaced.
    ///   - lifetime: How long after it began a sign-in may be finished (``PendingSignIn/defaultLifetime``).
    ///   - transport: Sends the token request.
    ///   - clock: Decides whether the pending sign-in expired, and freshness.
    ///   - configuration: Where tokens may go, and more; `nil` for ``Configuration/recommended(for:)``.
    /// - Returns: The saved session.
    /// - Throws: ``BearerError/Kind/invalidRedirect`` when no pending sign-in is kept for the
    ///   callback's `state` (never begun, already finished: a replayed callback), when it began for
    ///   another key (a callback someone else began, sent to this user), or the callback fails a
    ///   check; ``BearerError/Kind/timedOut`` when it began longer than `lifetime` ago;
    ///   ``OAuthError`` when the server refused; else as the one-call sign-in. Nothing is sent to
    ///   the server in the first two cases.
    public static func finishSignIn(
        redirect: URL,
        pendingSignIns: some PendingSignInStore,
        store: any SessionStore,
        key: String,
        lifetime: Duration = PendingSignIn.defaultLifetime,
        transport: any HTTPTransport,
        clock: WallClock = .system,
        configuration: Configuration? = nil
    ) async throws -> AuthSession {
        try await finishSignIn(
            redirect: redirect, pendingSignIns: pendingSignIns, store: store, key: key, lifetime: lifetime,
            transport: transport, clock: clock, configuration: configuration, platform: nil)
    }

    /// Finishes the sign-in `redirect` answers, with `platform`'s DPoP keys and signature verifier where
    /// the configuration has none.
    @_spi(Bridge) public static func finishSignIn(
        redirect: URL,
        pendingSignIns: some PendingSignInStore,
        store: any SessionStore,
        key: String,
        lifetime: Duration,
        transport: any HTTPTransport,
        clock: WallClock,
        configuration: Configuration?,
        platform: PlatformCryptography?
    ) async throws -> AuthSession {
        let state = URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == "state" }?.value
        guard let state, !state.isEmpty, let pending = try await pendingSignIns.takePendingSignIn(state: state) else {
            throw BearerError.invalidRedirect(
                "No pending sign-in is kept for this callback's state: it was already finished (a replayed or "
                    + "resubmitted callback), or never began here. Start the sign-in again.")
        }
        return try await finishSignIn(
            pending, redirect: redirect, store: store, key: key, lifetime: lifetime, transport: transport,
            clock: clock,
            configuration: .resolved(configuration, for: pending.request.server, platform: platform))
    }

    /// Finishes `pending` with the callback `redirect`. The caller must make sure each pending
    /// sign-in is finished at most once; ``finishSignIn(redirect:pendingSignIns:store:key:lifetime:transport:clock:configuration:)``
    /// does, through its store.
    ///
    /// - Parameters:
    ///   - pending: The pending sign-in the callback belongs to.
    ///   - redirect: The callback URL.
    ///   - store: Where the session is saved.
    ///   - key: The key it is saved under, which must be the one the sign-in began for.
    ///   - lifetime: How long after it began a sign-in may be finished.
    ///   - transport: Sends the token request.
    ///   - clock: Decides whether the pending sign-in expired, and freshness.
    ///   - configuration: Where tokens may go, and more.
    /// - Returns: The saved session.
    /// - Throws: As ``finishSignIn(redirect:pendingSignIns:store:key:lifetime:transport:clock:configuration:)``.
    public static func finishSignIn(
        _ pending: PendingSignIn,
        redirect: URL,
        store: any SessionStore,
        key: String,
        lifetime: Duration = PendingSignIn.defaultLifetime,
        transport: any HTTPTransport,
        clock: WallClock = .system,
        configuration: Configuration? = nil
    ) async throws -> AuthSession {
        let configuration = configuration ?? .recommended(for: pending.request.server)
        guard ConstantTime.equals(pending.key, key) else {
            throw BearerError.invalidRedirect(
                "This callback belongs to a sign-in begun for another account or browser session; it was "
                    + "refused, and nothing was sent. Start the sign-in again.")
        }
        guard pending.isLive(at: clock.now(), lifetime: lifetime) else {
            throw BearerError.timedOut(
                "The sign-in began at \(pending.createdAt), longer ago than the \(lifetime) it may take; "
                    + "start it again.")
        }
        let state: AuthState
        do {
            let response = try AuthorizationResponse(redirect: redirect, for: pending.request)
            let serverClient = AuthorizationServerClient(
                transport: transport, clock: clock, configuration: configuration)
            let granted = try await serverClient.exchange(
                response, for: pending.request, additionalParameters: pending.tokenParameters,
                provingWith: try await serverClient.newGrantKey(at: pending.request.server))
            state = await serverClient.describingUser(of: granted)
        } catch {
            throw configuration.rewriteError(error)
        }
        return try await saveOrRevoke(
            state, to: store, key: key, transport: transport, clock: clock, configuration: configuration)
    }
}
