#if canImport(Security)
    import BearerCore

    extension KeychainSessionStore: BackChannelLogoutStore {
        /// Ends the sessions `token` names, one by one, each under its key's lock; see
        /// ``BackChannelLogoutStore``. The tokens accepted are remembered by this store value, in memory.
        ///
        /// - Parameter token: A verified logout token.
        /// - Returns: How many sessions ended, or ``LogoutEnding/replayed``.
        /// - Throws: ``BearerError/Kind/storageFailure`` when the keychain cannot be read or written.
        public func endSessions(namedBy token: LogoutToken) async throws -> LogoutEnding {
            try await endSessionsOneByOne(namedBy: token, remembering: seenLogoutTokens)
        }
    }
#endif
