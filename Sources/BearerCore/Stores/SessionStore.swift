/// Where sessions are kept between launches: one item per key.
///
/// Bearer ships ``InMemorySessionStore``, ``FileSessionStore``, on Apple platforms
/// `KeychainSessionStore`, and for server fleets `PostgresSessionStore` (the `BearerPostgres`
/// product). A store must never lose a session on bad input or a crash: a save
/// replaces the old item atomically, and an unreadable item is reported, not deleted.
public protocol SessionStore: Sendable {
    /// Reads the session saved under `key`.
    ///
    /// - Parameter key: The session's key.
    /// - Returns: The session, or `nil` when none is saved.
    /// - Throws: ``BearerError`` when an item exists but cannot be read (corrupt, insecure,
    ///   written by a newer release); the item is left as it is.
    func load(key: String) async throws -> AuthState?

    /// Saves `state` under `key`, replacing any previous item atomically.
    ///
    /// - Parameters:
    ///   - state: The session.
    ///   - key: The session's key.
    /// - Throws: ``BearerError/Kind/storageFailure`` when it cannot be written; the previous item
    ///   is then unchanged.
    func save(_ state: AuthState, key: String) async throws

    /// Removes the item saved under `key`, and with it every credential of that session.
    ///
    /// - Parameter key: The session's key.
    /// - Throws: ``BearerError/Kind/storageFailure`` when it cannot be removed.
    func remove(key: String) async throws

    /// The keys of the sessions saved in this store, sorted, for an account picker (see
    /// ``AuthSession/savedAccounts(in:)``).
    ///
    /// - Returns: The keys; empty when nothing is saved.
    /// - Throws: ``BearerError/Kind/storageFailure`` when the store cannot be listed.
    func keys() async throws -> [String]

    /// Runs `body` while holding the exclusive lock of `key`: no other task, and for stores shared
    /// between processes no other process, runs a body for the same key at the same time.
    ///
    /// ``AuthSession`` refreshes inside this lock: it re-reads the stored session, refreshes only
    /// if it is still stale, and saves before releasing the lock.
    ///
    /// - Parameters:
    ///   - key: The session's key.
    ///   - body: The work to do under the lock.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``BearerError/Kind/storageFailure`` when the lock cannot be taken.
    func withExclusiveAccess<Result: Sendable>(
        to key: String,
        _ body: @Sendable () async throws -> Result
    ) async throws -> Result
}

/// How a locked run will use the store: whether a save may follow, so space must be set aside
/// for it first. Sign-out and disconnect only remove, and must work on a full disk.
package enum StoreAccess {
    /// Whether the current locked run may save; `false` while signing out or disconnecting.
    @TaskLocal package static var maySave = true
}
