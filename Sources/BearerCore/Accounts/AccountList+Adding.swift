extension AccountList {
    /// Signs a user in and saves the session as that user's account: a new account for a user
    /// not in the list, which leaves the others as they are; the same account, updated, for a
    /// user signed in before. The sign-in is ``AuthSession/signIn(to:as:scopes:using:store:key:additionalParameters:tokenParameters:transport:clock:configuration:)``'s.
    ///
    /// Ask for `openid` (and `email` or `profile` for a picker): the account is told apart from
    /// the others by the user the server names. The default does not change unless
    /// `makingDefault` is set; the first account is the default until another is chosen.
    ///
    /// ```swift
    /// let session = try await accounts.signIn(
    ///     to: .google, as: client, scopes: ["openid", "email"],
    ///     using: ASWebAuthenticationSessionAgent(anchor: window),
    ///     additionalParameters: ["prompt": "select_account"])
    /// ```
    ///
    /// - Parameters:
    ///   - server: The authorization server.
    ///   - client: The client.
    ///   - scopes: The scopes to ask for.
    ///   - agent: Shows the page.
    ///   - additionalParameters: Extra authorization parameters, such as Google's
    ///     `prompt=select_account` so the user can pick another account than the browser's.
    ///   - tokenParameters: Extra parameters of the code exchange.
    ///   - makingDefault: Whether the account becomes the default.
    ///   - transport: Sends token requests and the session's requests.
    ///   - clock: Decides freshness.
    ///   - configuration: Where tokens may go, and more; `nil` for ``AuthSession/Configuration/recommended(for:)``.
    /// - Returns: The account's saved session.
    /// - Throws: What ``AuthSession/signIn(to:as:scopes:using:store:key:additionalParameters:tokenParameters:transport:clock:configuration:)``
    ///   throws; ``BearerError/Kind/unknownAccount`` when the server did not say who signed in and
    ///   other accounts are saved (the grant is then revoked, and nothing saved changes).
    public func signIn(
        to server: AuthorizationServer,
        as client: Client,
        scopes: [String],
        using agent: some AuthorizationAgent,
        additionalParameters: [String: String] = [:],
        tokenParameters: [String: String] = [:],
        makingDefault: Bool = false,
        transport: any HTTPTransport,
        clock: WallClock = .system,
        configuration: AuthSession.Configuration? = nil
    ) async throws -> AuthSession {
        let configuration = configuration ?? .recommended(for: server)
        let state = try await AuthSession.signedInState(
            to: server, as: client, scopes: scopes, using: agent, additionalParameters: additionalParameters,
            tokenParameters: tokenParameters, transport: transport, clock: clock, configuration: configuration,
            resource: nil)
        return try await addOrRevoke(
            state, makingDefault: makingDefault, transport: transport, clock: clock, configuration: configuration)
    }

    /// Signs a user in with the device authorization grant (RFC 8628) and saves the session as
    /// that user's account, as ``signIn(to:as:scopes:using:additionalParameters:tokenParameters:makingDefault:transport:clock:configuration:)`` does.
    ///
    /// - Parameters:
    ///   - server: The authorization server; it must have a device authorization endpoint.
    ///   - client: The client.
    ///   - scopes: The scopes to ask for.
    ///   - makingDefault: Whether the account becomes the default.
    ///   - transport: Sends token requests and the session's requests.
    ///   - clock: Decides freshness.
    ///   - configuration: Where tokens may go, and more; `nil` for ``AuthSession/Configuration/recommended(for:)``.
    ///   - progress: Told the code to show, and each wait.
    /// - Returns: The account's saved session.
    /// - Throws: What ``AuthSession/signInWithDeviceCode(to:as:scopes:store:key:transport:clock:configuration:progress:)``
    ///   throws; ``BearerError/Kind/unknownAccount`` as for a browser sign-in.
    public func signInWithDeviceCode(
        to server: AuthorizationServer,
        as client: Client,
        scopes: [String],
        makingDefault: Bool = false,
        transport: any HTTPTransport,
        clock: WallClock = .system,
        configuration: AuthSession.Configuration? = nil,
        progress: @escaping @Sendable (DeviceSignInProgress) async -> Void
    ) async throws -> AuthSession {
        let configuration = configuration ?? .recommended(for: server)
        let state = try await AuthSession.deviceSignedInState(
            to: server, as: client, scopes: scopes, transport: transport, clock: clock, configuration: configuration,
            progress: progress)
        return try await addOrRevoke(
            state, makingDefault: makingDefault, transport: transport, clock: clock, configuration: configuration)
    }

    /// Saves `state`, a session obtained elsewhere (a migration, an import, a sign-in an app made
    /// itself), as its user's account: a new one, or the same user's, updated. The same user's
    /// account stays the default if it was. Restore it with ``session(for:transport:clock:configuration:)``.
    ///
    /// - Parameters:
    ///   - state: The session.
    ///   - makingDefault: Whether the account becomes the default.
    ///   - clock: The time of a default choice.
    /// - Returns: The saved account.
    /// - Throws: ``BearerError/Kind/unknownAccount`` when `state` names no user and other accounts
    ///   are saved; the store's error when it cannot be listed or written (nothing changed then).
    @discardableResult
    public func add(_ state: AuthState, makingDefault: Bool = false, clock: WallClock = .system) async throws
        -> SavedAccount
    {
        let saved = try await savedItems()
        let sameAccount = Self.readable(saved).first { AccountKeys.isSameAccount($0.state, state) }
        let rank = makingDefault ? AccountChoice.nextRank(at: clock.now(), after: ranks(saved)) : nil
        var candidates: [String] = []
        if let sameAccount {
            candidates = [sameAccount.key]
        } else {
            if saved.isEmpty { candidates.append(key) }
            if let ownKey = AccountKeys.ownKey(of: state, in: key) { candidates.append(ownKey) }
        }
        for candidate in candidates {
            guard let written = try await write(state, rank: rank, to: candidate) else { continue }
            // Saved: nothing from here on may fail, so a sign-in is never revoked once it is kept.
            var items = saved.filter { $0.key != candidate }
            items.append(SavedItem(key: candidate, content: .success(written)))
            items.sort { $0.key < $1.key }
            return Self.accounts(from: items, listKey: key).first { $0.key == candidate }
                ?? SavedAccount(key: candidate, state: written)
        }
        if let taken = candidates.last, AccountKeys.identity(of: state) != nil {
            throw BearerError.unknownAccount(
                "The key \(taken) of this user's account holds another user's session (saved there meanwhile); "
                    + "nothing was changed. Sign in again.")
        }
        throw BearerError.unknownAccount(
            "The server did not say which user signed in, and other accounts are saved (\(Self.names(of: try await accounts()))); "
                + "sign in with the openid scope so the account can be told apart. Nothing saved was changed."
        )
    }

    /// Writes `state` under `candidate` when nothing is saved there or the same account is,
    /// keeping that one's default rank unless `rank` replaces it.
    ///
    /// - Returns: What was written; `nil` when another account holds the key.
    private func write(_ state: AuthState, rank: Int64?, to candidate: String) async throws -> AuthState? {
        try await store.withExclusiveAccess(to: candidate) { access in
            let stored = try await access.load()
            if let stored, !AccountKeys.isSameAccount(stored, state) { return nil }
            let written = AccountChoice.ranked(state, rank ?? stored.flatMap(AccountChoice.rank(of:)))
            try await access.save(written, replacing: stored)
            return written
        }
    }

    /// The default ranks recorded in `saved`.
    func ranks(_ saved: [SavedItem]) -> [Int64] {
        Self.readable(saved).compactMap { AccountChoice.rank(of: $0.state) }
    }

    /// Adds a new sign-in; when it cannot be saved, revokes its grant (best effort) before
    /// rethrowing, so no unsaved token stays valid.
    private func addOrRevoke(
        _ state: AuthState,
        makingDefault: Bool,
        transport: any HTTPTransport,
        clock: WallClock,
        configuration: AuthSession.Configuration
    ) async throws -> AuthSession {
        let account: SavedAccount
        do {
            account = try await add(state, makingDefault: makingDefault, clock: clock)
        } catch {
            _ = await AuthorizationServerClient(transport: transport, clock: clock, configuration: configuration)
                .revokeEveryToken(of: state)
            throw error
        }
        // Saved: from here on a failure leaves the account as it is, to be restored later.
        return try await session(for: account, transport: transport, clock: clock, configuration: configuration)
    }
}
