extension AuthSession {
    /// Replaces the session with a new sign-in and saves it, clearing any sign-in-required mark:
    /// for the tool's `login` over an existing profile and the package's tests; an app signs in
    /// again with ``signIn(to:as:scopes:using:store:key:additionalParameters:tokenParameters:transport:clock:configuration:)``.
    ///
    /// - Parameter newState: The new session.
    /// - Throws: The store's error when it cannot be saved (the new session is kept in memory and
    ///   saved again before it is used).
    @_spi(CommandLine) public func replace(with newState: AuthState) async throws {
        try await funnel {
            try await self.withStoreLock { access in try await self.replaceHoldingLock(with: newState, access) }
        }
    }

    private func replaceHoldingLock(with newState: AuthState, _ access: some ExclusiveSessionAccess) async throws {
        let stored = try await access.load()
        try await save(machine.replaced(with: newState, storedCopy: stored), over: stored, through: access)
    }

    /// Signs out on this device only: removes the stored session and forgets its tokens. Nothing
    /// is sent to the server, and nothing else of the user's changes; the grant stays valid until
    /// it expires or the user revokes it (use ``disconnect()`` to revoke it too).
    ///
    /// The stored copy is read first, under the store's lock: when another account has signed in
    /// under the same key since, its session is not this one's to remove, and is kept.
    ///
    /// - Throws: The store's error when the stored copy cannot be read or removed; the stored
    ///   session is then left as it is, and this one is still signed in.
    public func signOut() async throws {
        try await funnel {
            let wasOwn = try await self.withStoreLock { access in try await self.signOutHoldingLock(access) }
            if wasOwn { try await self.removeDerivedSessions(revoking: false) }
        }
    }

    private func signOutHoldingLock(_ access: some ExclusiveSessionAccess) async throws -> Bool {
        let isOwn = try await storedCopyIsOwn(access)
        if isOwn { try await access.remove() }
        machine.signedOut()
        notifyObservers()
        return isOwn
    }

    /// Disconnects the app from the account: revokes the grant (RFC 7009), then removes the
    /// stored session, as GoogleSignIn's `disconnect` does. The stored session is removed even
    /// when revocation fails; the failure is returned. Both happen under the store's lock, with
    /// the latest stored tokens, so a refresh token another process rotated is the one revoked.
    /// When another account has signed in under the same key since, this session's own grant is
    /// revoked and the other account's stored session is kept.
    ///
    /// - Returns: Whether the server revoked the grant; when it did not (``RevocationOutcome/failed(_:)``),
    ///   tell the user the grant may still be valid and where to revoke it.
    /// - Throws: The store's error when the stored copy cannot be read or removed. When it cannot
    ///   be read, nothing is revoked or removed, and this session is still signed in.
    public func disconnect() async throws -> RevocationOutcome {
        try await funnel {
            let (outcome, wasOwn) = try await self.withStoreLock { access in
                try await self.disconnectHoldingLock(access)
            }
            if wasOwn { try await self.removeDerivedSessions(revoking: true) }
            return outcome
        }
    }

    private func disconnectHoldingLock(_ access: some ExclusiveSessionAccess) async throws -> (RevocationOutcome, Bool)
    {
        // The newest tokens are revoked: a copy that is gone or belongs to another account leaves
        // this session's own tokens as the ones to revoke.
        let isOwn = try await storedCopyIsOwn(access)
        let outcome = await serverClient.revokeEveryToken(of: machine.state)
        if isOwn { try await access.remove() }
        machine.signedOut()
        notifyObservers()
        return (outcome, isOwn)
    }

    /// Signs out of the sessions derived from this one (``derive(_:at:as:resource:store:key:transport:clock:configuration:)``),
    /// revoking their grants when `revoking`, once this session's lock is released (a derived
    /// session takes its own lock first, then its parent's; never the other way round). Every one
    /// is tried; the first failure is thrown, and a session that failed stays, unusable without
    /// its parent.
    private func removeDerivedSessions(revoking: Bool) async throws {
        var failure: (any Error)?
        for derivedKey in try await store.keys(startingWith: SessionDerivation.derivedKeyPrefix(of: key)) {
            do {
                guard
                    let derived = try await Self.restore(
                        key: derivedKey, from: store, transport: transport, clock: clock, configuration: configuration),
                    await derived.state.derivation?.parentKey == key
                else { continue }
                if revoking { _ = try await derived.disconnect() } else { try await derived.signOut() }
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
    }

    /// Catches up with the stored copy before it is removed, under the store's lock.
    ///
    /// - Returns: `false` when the copy belongs to another account, which signed in under the
    ///   same key since, whatever this session's phase; `true` when it is this session's (its
    ///   newest tokens adopted) or is gone.
    /// - Throws: The store's error when the copy cannot be read, which is then left as it is.
    private func storedCopyIsOwn(_ access: some ExclusiveSessionAccess) async throws -> Bool {
        guard let stored = try await access.load() else { return true }
        guard machine.state.mayBeOwnCopy(stored) else { return false }
        try await catchUp(with: stored)
        return true
    }
}

/// What happened to the grant at the server when disconnecting (``AuthSession/disconnect()``).
///
/// Outcomes compare by case; two failures are equal when their errors are: ``OAuthError``s by
/// value, ``BearerError``s by kind, any other error by its type and description.
public enum RevocationOutcome: Sendable, Equatable {
    /// The server revoked the grant.
    case revoked
    /// The server has no revocation endpoint or the session held no token; only the local session was removed.
    case notRevoked
    /// Revocation failed (the local session was still removed); the grant may remain valid at the server.
    case failed(any Error)

    /// Whether two outcomes are the same case, with equal errors for failures.
    ///
    /// - Parameters:
    ///   - lhs: An outcome.
    ///   - rhs: Another.
    /// - Returns: `true` when they are equal.
    public static func == (lhs: RevocationOutcome, rhs: RevocationOutcome) -> Bool {
        switch (lhs, rhs) {
        case (.revoked, .revoked), (.notRevoked, .notRevoked):
            return true
        case (.failed(let left), .failed(let right)):
            if let left = left as? OAuthError, let right = right as? OAuthError { return left == right }
            if let left = left as? BearerError, let right = right as? BearerError { return left.kind == right.kind }
            return type(of: left) == type(of: right) && String(describing: left) == String(describing: right)
        default:
            return false
        }
    }
}
