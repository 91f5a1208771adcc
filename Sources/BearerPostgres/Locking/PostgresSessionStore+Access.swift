@_spi(Fleet) public import BearerCore

extension PostgresSessionStore {
    /// A key's row while its advisory lock is held: its loads, saves and removals run on the
    /// lock's connection (or, when that broke, on the holder's place reconnected, under the
    /// lease), and requests to the authorization server made meanwhile end with the lease.
    public struct Access: ExclusiveSessionAccess, OtherKeysAccess {
        let store: PostgresSessionStore
        let held: HeldLock

        /// Reads the key's session.
        ///
        /// - Throws: ``PostgresSessionStoreError``; `BearerError` when the row cannot be read.
        public func load() async throws -> AuthState? {
            let select = store.statements.load
            let key = held.key
            let row = try await store.runHolding(held) { connection in
                try connection.execute(select, [.text(key)]).first
            }
            let copy = try await store.decode(row, key: key)
            held.knownCopy = .some(copy)
            held.copyWasEnded = store.isEnded(row)
            return copy
        }

        /// Saves `state` when the row still holds `expected`: compared with the copy this holder
        /// read or wrote (nothing else writes the row while it holds the lock or the lease), so a
        /// save after a restart goes straight to its retries instead of reading first.
        ///
        /// - Throws: `BearerError` of kind `storedCopyChanged` when the row holds another copy;
        ///   ``PostgresSessionStoreError`` when it cannot be written.
        public func save(_ state: AuthState, replacing expected: AuthState?) async throws {
            let stored: AuthState?
            if let known = held.knownCopy { stored = known } else { stored = try await load() }
            guard stored == expected else { throw BearerError.storedCopyChanged(from: expected, to: stored) }
            try await write(state)
        }

        /// Writes `state` over the key's row, committed before this returns, and leases a row
        /// this save creates. A row the provider ended (back-channel logout) stays ended when this
        /// holder read it before the end; a new sign-in over it clears the end.
        ///
        /// - Throws: ``PostgresSessionStoreError``; the stored row is then unchanged, and the lease
        ///   kept until it runs out.
        public func write(_ state: AuthState) async throws {
            let bytes = try await store.sealed(try state.encoded(), key: held.key)
            // A session this holder read before the provider ended it keeps the end (a refresh
            // that was under way); one it read ended, or never read, is replaced by a new sign-in.
            let readBeforeEnd = held.knownCopy.map { $0 != nil } == true && !held.copyWasEnded
            try await store.saveHoldingLock(
                held, bytes: bytes, isSealed: store.sealing != nil, columns: SessionColumns(state),
                clearsEnd: !readBeforeEnd && state.signInRequiredError == nil)
            held.knownCopy = .some(state)
            held.copyWasEnded = false
        }

        /// Removes the key's row.
        ///
        /// - Throws: ``PostgresSessionStoreError``.
        public func remove() async throws {
            try await store.removeHoldingLock(held)
            held.knownCopy = .some(nil)
            held.copyWasEnded = false
        }

        /// When the lease ends, as far as the holder knows: each confirmed renewal moves it on.
        public var exchangeDeadline: ContinuousClock.Instant? { held.leaseEnd }

        /// This store, opening a connection beyond its pool when none is free: the body holds
        /// one of the pool's connections with this lock, so other keys' loads and locks (a derived
        /// session's parent) must not wait for one, or a full pool of such holders would wait for
        /// itself until the lock timeout.
        package var storeForOtherKeys: any SessionStore { store.openingBeyondPool() }
    }
}
