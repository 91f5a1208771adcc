extension AccountList {
    /// The session of `account`, for its tokens and requests. Using it changes no default: two
    /// tasks or processes using two accounts at once each get their own account's tokens.
    ///
    /// - Parameters:
    ///   - account: An account from ``accounts()``, ``defaultAccount()`` or ``account(named:)``.
    ///   - transport: Sends token requests and the session's requests.
    ///   - clock: Decides freshness.
    ///   - configuration: Where tokens may go, and more; `nil` for ``AuthSession/Configuration/recommended(for:)``.
    /// - Returns: The session.
    /// - Throws: ``BearerError/Kind/unknownAccount`` when the account was removed meanwhile, or its
    ///   key now holds another user's session; the store's error when its item cannot be read (it
    ///   is left as it is).
    public func session(
        for account: SavedAccount,
        transport: any HTTPTransport,
        clock: WallClock = .system,
        configuration: AuthSession.Configuration? = nil
    ) async throws -> AuthSession {
        try await session(
            for: account, transport: transport, clock: clock, configuration: configuration, platform: nil)
    }

    /// ``session(for:transport:clock:configuration:)`` with `platform`'s cryptography where the
    /// configuration has none: for `import Bearer`'s entry points.
    @_spi(Bridge) public func session(
        for account: SavedAccount,
        transport: any HTTPTransport,
        clock: WallClock,
        configuration: AuthSession.Configuration?,
        platform: PlatformCryptography?
    ) async throws -> AuthSession {
        let session = try await restored(
            account, transport: transport, clock: clock, configuration: configuration, platform: platform)
        guard let session else {
            throw BearerError.unknownAccount(
                "The account \(Self.names(of: [account])) is no longer saved (it was removed); sign it in again.")
        }
        return session
    }

    /// The session saved under `account`'s key, when it is still that account's; `nil` when
    /// none is saved.
    ///
    /// - Throws: ``BearerError/Kind/unknownAccount`` when the key holds another user's session.
    private func restored(
        _ account: SavedAccount,
        transport: any HTTPTransport,
        clock: WallClock,
        configuration: AuthSession.Configuration?,
        platform: PlatformCryptography?
    ) async throws -> AuthSession? {
        let session = try await AuthSession.restore(
            key: account.key, from: store, transport: transport, clock: clock, configuration: configuration,
            platform: platform)
        guard let session else { return nil }
        guard Self.isStill(account, await session.state) else { throw Self.replaced(account) }
        return session
    }

    /// The error for `account` whose key now holds another user's session.
    static func replaced(_ account: SavedAccount) -> BearerError {
        BearerError.unknownAccount(
            "The key \(account.key) of the account \(Self.names(of: [account])) now holds another user's session "
                + "(the account was removed and another signed in); list the accounts again. Nothing was changed.")
    }

    /// Makes `account` the default, in its own saved item: no other account's item is touched.
    ///
    /// - Parameters:
    ///   - account: The account.
    ///   - clock: The time of the choice; a later choice wins.
    /// - Throws: ``BearerError/Kind/unknownAccount`` when the account was removed meanwhile, or
    ///   its key now holds another user; the store's error when it cannot be written (nothing
    ///   changed then).
    public func makeDefault(_ account: SavedAccount, clock: WallClock = .system) async throws {
        let rank = AccountChoice.nextRank(at: clock.now(), after: ranks(try await savedItems()))
        let chosen = try await store.withExclusiveAccess(to: account.key) { access -> Bool in
            guard let stored = try await access.load(), Self.isStill(account, stored) else { return false }
            try await access.save(AccountChoice.ranked(stored, rank), replacing: stored)
            return true
        }
        guard chosen else {
            throw BearerError.unknownAccount(
                "The account \(Self.names(of: [account])) is no longer saved under its key; list the accounts again.")
        }
    }

    /// Revokes `account`'s grant at its server and removes its session, as
    /// ``AuthSession/disconnect()`` does: that account only; the others keep working. When it was
    /// the default, the one chosen before it is, else the one under the list's own key, else the
    /// one with the lowest key.
    ///
    /// - Parameters:
    ///   - account: The account.
    ///   - transport: Sends the revocation.
    ///   - clock: Decides freshness.
    ///   - configuration: How errors are reported, and more; `nil` for ``AuthSession/Configuration/recommended(for:)``.
    /// - Returns: What became of the tokens at the server (``RevocationOutcome``);
    ///   ``RevocationOutcome/notRevoked`` when the account was already gone.
    /// - Throws: ``BearerError/Kind/unknownAccount`` when the account's key now holds another
    ///   user's session (nothing is revoked or removed); the store's error when the item cannot be
    ///   read or removed, and it is then left as it is.
    public func disconnect(
        _ account: SavedAccount,
        transport: any HTTPTransport,
        clock: WallClock = .system,
        configuration: AuthSession.Configuration? = nil
    ) async throws -> RevocationOutcome {
        try await disconnect(account, transport: transport, clock: clock, configuration: configuration, platform: nil)
    }

    /// ``disconnect(_:transport:clock:configuration:)`` with `platform`'s cryptography where the
    /// configuration has none: for `import Bearer`'s entry points.
    @_spi(Bridge) public func disconnect(
        _ account: SavedAccount,
        transport: any HTTPTransport,
        clock: WallClock,
        configuration: AuthSession.Configuration?,
        platform: PlatformCryptography?
    ) async throws -> RevocationOutcome {
        let session = try await restored(
            account, transport: transport, clock: clock, configuration: configuration, platform: platform)
        return try await session?.disconnect() ?? .notRevoked
    }

    /// Whether `stored` is still the session of `account` (the same server, client and user).
    static func isStill(_ account: SavedAccount, _ stored: AuthState) -> Bool {
        stored.server.issuer == account.issuer && stored.client.id == account.clientID
            && AccountKeys.identity(of: stored.user) == AccountKeys.identity(of: account.user)
    }
}
