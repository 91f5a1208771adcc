extension InMemorySessionStore: BackChannelLogoutStore {
    /// Ends the sessions `token` names, one by one; see ``BackChannelLogoutStore``.
    ///
    /// - Parameter token: A verified logout token.
    /// - Returns: How many sessions ended, or ``LogoutEnding/replayed``.
    /// - Throws: The store's error.
    public func endSessions(namedBy token: LogoutToken) async throws -> LogoutEnding {
        try await endSessionsOneByOne(namedBy: token, remembering: seenLogoutTokens)
    }
}

extension FileSessionStore: BackChannelLogoutStore {
    /// Ends the sessions `token` names, one by one, each under its key's lock file; see
    /// ``BackChannelLogoutStore``. The tokens accepted are remembered by this store value, in memory.
    ///
    /// - Parameter token: A verified logout token.
    /// - Returns: How many sessions ended, or ``LogoutEnding/replayed``.
    /// - Throws: ``BearerError/Kind/storageFailure`` when the folder cannot be listed or a session saved.
    public func endSessions(namedBy token: LogoutToken) async throws -> LogoutEnding {
        try await endSessionsOneByOne(namedBy: token, remembering: seenLogoutTokens)
    }
}
