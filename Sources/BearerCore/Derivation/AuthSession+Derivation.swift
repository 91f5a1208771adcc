#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension AuthSession {
    /// The session derived from the one saved under `derivation`'s parent key: made now by a
    /// token exchange or an ID-JAG of the parent's token, saved, and made again from a fresh parent
    /// whenever it is stale.
    ///
    /// ```swift
    /// let billing = try await AuthSession.derive(
    ///     .tokenExchange(from: "default", audiences: ["billing"]), at: tokenService, as: client, store: store)
    /// ```
    ///
    /// - The derived session is saved under ``SessionDerivation``'s key for it,
    ///   `<parent>+derived-<hash>`. When a session that still works is saved there from the same
    ///   recipe, it is returned and nothing is sent: every launch of an app or agent can call this.
    /// - It is made under that key's lock, so tasks, processes, and instances sharing a
    ///   PostgreSQL store make it once.
    /// - When it is stale it is refreshed with its own refresh token when the server issued one,
    ///   else made again the same way from the parent, refreshed first where needed, under its lock:
    ///   one exchange for every caller across processes.
    /// - While the parent needs a new sign-in (or is gone) the derived session fails with
    ///   ``BearerError/Kind/signInRequired`` and is not marked: it works again once the parent is
    ///   signed in again.
    /// - Signing out of the parent (``signOut()``, ``disconnect()``) removes the sessions derived
    ///   from it, and ``disconnect()`` revokes their grants too.
    ///
    /// The parent is restored from `store` with this session's configuration.
    ///
    /// - Parameters:
    ///   - derivation: The recipe: which parent, and how.
    ///   - server: The server that issues the derived session's tokens: the security token service
    ///     of a token exchange, or the authorization server of an MCP server for an ID-JAG.
    ///   - client: The client registered there.
    ///   - resource: The protected resource the tokens are for, when there is one; its URL is sent
    ///     as `resource`, and its tokens go to it alone.
    ///   - store: The store that holds the parent, and where the derived session is saved.
    ///   - key: The key it is saved under; `nil` for the recipe's own, `<parent>+derived-<hash>`
    ///     (`workload+derived-<hash>` for a workload token). A session derived under a key of
    ///     your own is not removed with its parent.
    ///   - transport: Sends the requests.
    ///   - clock: Decides freshness.
    ///   - configuration: The derived session's configuration, used for the parent too; `nil` for
    ///     ``Configuration/recommended(for:)``.
    /// - Returns: The derived session.
    /// - Throws: ``BearerError/Kind/signInRequired`` when no session is saved under the parent key,
    ///   or the parent needs a new sign-in; ``BearerError/Kind/invalidConfiguration`` for a recipe
    ///   that cannot be followed; ``OAuthError`` when a server refuses the exchange or the grant;
    ///   ``BearerError/Kind/invalidResponse`` for an answer that is refused (its tokens are revoked
    ///   where the server allows); the store's error when the session cannot be saved (its grant is
    ///   then revoked).
    public static func derive(
        _ derivation: SessionDerivation,
        at server: AuthorizationServer,
        as client: Client,
        resource: ProtectedResource? = nil,
        store: any SessionStore,
        key: String? = nil,
        transport: any HTTPTransport,
        clock: WallClock = .system,
        configuration: Configuration? = nil
    ) async throws -> AuthSession {
        try await derive(
            derivation, at: server, as: client, resource: resource, store: store, key: key, transport: transport,
            clock: clock, configuration: configuration, platform: nil)
    }

    /// ``derive(_:at:as:resource:store:key:transport:clock:configuration:)`` with `platform`'s DPoP keys
    /// and signature verifier where the configuration has none.
    @_spi(Bridge) public static func derive(
        _ derivation: SessionDerivation,
        at server: AuthorizationServer,
        as client: Client,
        resource: ProtectedResource?,
        store: any SessionStore,
        key: String?,
        transport: any HTTPTransport,
        clock: WallClock,
        configuration: Configuration?,
        platform: PlatformCryptography?
    ) async throws -> AuthSession {
        let configuration = Configuration.resolved(configuration, for: server, platform: platform)
        let key = key ?? derivation.derivedKey(at: server, as: client, resource: resource)
        do {
            try derivation.check(derivedKey: key)
            let state = try await store.withExclusiveAccess(to: key) { access in
                let stored = try await access.load()
                if let stored, stored.derivation == derivation, stored.canAuthorize,
                    stored.server.issuer == server.issuer, stored.client == client, stored.resource == resource
                {
                    return stored
                }
                let parent = try await parentSession(
                    of: derivation, in: access.storeForOtherKeys(else: store), transport, clock, configuration)
                let serverClient = AuthorizationServerClient(
                    transport: transport, clock: clock, configuration: configuration
                ).bounded(by: access)
                let derived = try await serverClient.derivedState(
                    derivation, at: server, as: client, resource: resource, from: parent)
                do {
                    try await access.save(derived, replacing: stored)
                } catch {
                    _ = await serverClient.revokeEveryToken(of: derived)
                    throw error
                }
                return derived
            }
            return restoring(
                state, key: key, from: store, transport: transport, clock: clock, configuration: configuration,
                platform: nil)
        } catch {
            throw configuration.rewriteError(error)
        }
    }

    /// The parent of `derivation`, restored from `store`: under a derived key's lock, the store
    /// its access names for other keys (``OtherKeysAccess``).
    ///
    /// - Throws: ``BearerError/Kind/signInRequired`` when no session is saved under its key.
    /// - Returns: The parent; `nil` for a recipe without one (a workload token).
    static func parentSession(
        of derivation: SessionDerivation, in store: any SessionStore, _ transport: any HTTPTransport,
        _ clock: WallClock, _ configuration: Configuration
    ) async throws -> AuthSession? {
        guard let parentKey = derivation.parentKey else { return nil }
        guard
            let parent = try await restore(
                key: parentKey, from: store, transport: transport, clock: clock, configuration: configuration)
        else {
            throw BearerError.signInRequired(
                "No session is saved under \"\(parentKey)\" to derive this one from; sign in to it first.")
        }
        return parent
    }

    /// `state`, a derived session, made again from its parent: refreshed with its own refresh
    /// token when it has one the server still takes, else derived again. Runs under the lock of
    /// the session's key.
    func derivedAgain(_ state: AuthState, derivation: SessionDerivation, through access: some ExclusiveSessionAccess)
        async throws -> AuthState
    {
        let serverClient = serverClient.bounded(by: access)
        if state.refreshToken != nil {
            do {
                return try await serverClient.refresh(
                    state, additionalParameters: configuration.additionalRefreshParameters(state))
            } catch let error as OAuthError where error.signInRequired {
                // The derived grant has ended; the parent makes a new one.
            }
        }
        let parent = try await Self.parentSession(
            of: derivation, in: access.storeForOtherKeys(else: store), transport, clock, configuration)
        return try await serverClient.derivedState(
            derivation, at: state.server, as: state.client, resource: state.resource, from: parent)
    }

    /// The parent's token of `type`, fresh: its access token, or an ID token that has not expired
    /// (refreshing the parent for one when needed).
    ///
    /// - Throws: ``BearerError/Kind/signInRequired`` when the parent needs a new sign-in, or has
    ///   no current ID token even after a refresh; other errors of the parent's refresh as they are.
    func subjectToken(of type: TokenTypeIdentifier) async throws -> SecurityToken {
        do {
            guard type == .idToken else { return SecurityToken(try await freshAccessToken().value) }
            var state = try await freshState()
            if state.idTokenNeedsRefresh(at: clock.now(), leeway: configuration.refreshLeeway) {
                state = try await freshState(.refresh(after: state.accessToken))
            }
            guard let idToken = state.idToken, !state.idTokenNeedsRefresh(at: clock.now(), leeway: 0) else {
                throw BearerError.signInRequired(
                    "The session \"\(key)\" holds no current ID token, and its refresh gave none; sign in to it again "
                        + "to derive sessions from its ID token.")
            }
            return SecurityToken(idToken.value)
        } catch let error as BearerError where error.kind == .signInRequired {
            throw BearerError.signInRequired(
                "The session \"\(key)\" that this one is derived from needs a new sign-in; sign in to it again. "
                    + "(\(error.reason))", underlyingError: error)
        } catch let error as OAuthError where error.signInRequired {
            throw BearerError.signInRequired(
                "The session \"\(key)\" that this one is derived from needs a new sign-in; sign in to it again. "
                    + "(\(error.code))", underlyingError: error)
        }
    }
}
