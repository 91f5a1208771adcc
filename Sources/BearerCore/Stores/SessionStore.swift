#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where sessions are kept between launches: one item per key.
///
/// Bearer ships ``InMemorySessionStore``, ``FileSessionStore``, on Apple platforms
/// `KeychainSessionStore`, and for server fleets `PostgresSessionStore` (the `BearerPostgres`
/// product). A store must never lose a session on bad input or a crash: a save replaces the old
/// item atomically, and an unreadable item is reported, not deleted.
///
/// Everything that changes a stored session happens under the key's lock, through the
/// ``ExclusiveSessionAccess`` that ``withExclusiveAccess(to:_:)`` hands its body. An app's own
/// store (Redis, Core Data, …) conforms by providing the lock and that access; `BearerTesting`'s
/// `SessionStoreConformance` checks it.
public protocol SessionStore: Sendable {
    /// What a body holding a key's lock reads and writes the key's session through.
    associatedtype Access: ExclusiveSessionAccess

    /// Reads the session saved under `key`, without taking its lock.
    ///
    /// - Parameter key: The session's key.
    /// - Returns: The session, or `nil` when none is saved.
    /// - Throws: ``BearerError`` when an item exists but cannot be read (corrupt, insecure,
    ///   written by a newer release); the item is left as it is.
    func load(key: String) async throws -> AuthState?

    /// The keys of the sessions saved in this store, sorted, for an account picker (see
    /// ``AuthSession/savedAccounts(in:)``).
    ///
    /// - Returns: The keys; empty when nothing is saved.
    /// - Throws: ``BearerError/Kind/storageFailure`` when the store cannot be listed.
    func keys() async throws -> [String]

    /// The keys that start with `prefix`, sorted: what an ``AccountList`` reads to list its
    /// accounts. The default implementation filters ``keys()``; a store that can look keys up by
    /// prefix in an index (the PostgreSQL store does) answers without reading every key.
    ///
    /// - Parameter prefix: The start every key returned has.
    /// - Returns: The keys; empty when none starts with `prefix`.
    /// - Throws: ``BearerError/Kind/storageFailure`` when the store cannot be listed.
    func keys(startingWith prefix: String) async throws -> [String]

    /// Runs `body` while holding the exclusive lock of `key`, handing it the access to the key's
    /// session: no other task, and for stores shared between processes no other process, runs a
    /// body for the same key at the same time.
    ///
    /// ``AuthSession`` refreshes inside this lock: it re-reads the stored session, refreshes only
    /// if it is still stale, and saves before releasing the lock.
    ///
    /// - Parameters:
    ///   - key: The session's key.
    ///   - body: The work to do under the lock; `access` is valid only until it returns.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``BearerError/Kind/storageFailure`` when the lock cannot be taken.
    func withExclusiveAccess<Result: Sendable>(
        to key: String,
        _ body: @Sendable (_ access: Access) async throws -> Result
    ) async throws -> Result
}

/// A key's session, read and written while its lock is held: what
/// ``SessionStore/withExclusiveAccess(to:_:)`` hands its body. It owns what the lock brought
/// (the file store's reserved space, the PostgreSQL store's connection and lease).
///
/// A save names the stored copy the new state was made from, and is refused when that is no
/// longer what is stored (see ``save(_:replacing:)``), so a state made before another process
/// signed out, or signed another account in, never overwrites what it did.
public protocol ExclusiveSessionAccess: Sendable {
    /// Reads the key's session.
    ///
    /// - Returns: The session, or `nil` when none is saved.
    /// - Throws: ``BearerError`` when the item exists but cannot be read; it is left as it is.
    func load() async throws -> AuthState?

    /// Saves `state`, replacing the stored item atomically, when the stored copy is still
    /// `expected` (`nil`: no session is stored).
    ///
    /// The default implementation loads the stored copy, compares it, and calls ``write(_:)``.
    ///
    /// - Parameters:
    ///   - state: The session to save.
    ///   - expected: The stored copy `state` was made from, as ``load()`` returned it.
    /// - Throws: ``BearerError/Kind/storedCopyChanged`` when the stored copy is another (nothing
    ///   is written); ``BearerError/Kind/storageFailure`` when it cannot be written (the previous
    ///   item is then unchanged).
    func save(_ state: AuthState, replacing expected: AuthState?) async throws

    /// Writes `state` over whatever is stored, atomically: what ``save(_:replacing:)`` does once
    /// the stored copy is known to be the expected one. Call ``save(_:replacing:)`` instead.
    ///
    /// - Parameter state: The session to write.
    /// - Throws: ``BearerError/Kind/storageFailure`` when it cannot be written; the previous item
    ///   is then unchanged.
    func write(_ state: AuthState) async throws

    /// Removes the key's session, and with it every credential of that session.
    ///
    /// - Throws: ``BearerError/Kind/storageFailure`` when it cannot be removed.
    func remove() async throws

    /// Makes sure the next save cannot fail for lack of room, before a request whose answer must
    /// be saved (a refresh that may rotate the refresh token) is sent. The default does nothing.
    ///
    /// - Throws: ``BearerError/Kind/storageFailure`` when the room cannot be had; nothing is sent then.
    func prepareToSave() async throws

    /// When the store's hold on the lock may end (a lease a fleet store could not renew); requests
    /// to the authorization server made under the lock are given up then, so no other holder
    /// refreshes with the same token meanwhile. `nil` (the default) when the lock lasts until
    /// the body returns.
    var exchangeDeadline: ContinuousClock.Instant? { get }
}

/// An access whose store would wait for what its lock holds (the PostgreSQL store's connection)
/// when the body reaches another key's session, as a derived session does its parent's (loaded,
/// and refreshed under the parent's own lock): it names a store that does not.
package protocol OtherKeysAccess: ExclusiveSessionAccess {
    /// The store through which the body reaches the sessions of other keys while it holds this lock.
    var storeForOtherKeys: any SessionStore { get }
}

extension ExclusiveSessionAccess {
    /// The store through which the body reaches other keys' sessions while it holds this lock:
    /// the access's own (``OtherKeysAccess``) where it names one, else `store`, the lock's store.
    func storeForOtherKeys(else store: any SessionStore) -> any SessionStore {
        (self as? any OtherKeysAccess)?.storeForOtherKeys ?? store
    }

    /// Saves `state` when the stored copy is still `expected`; see the requirement.
    public func save(_ state: AuthState, replacing expected: AuthState?) async throws {
        let stored = try await load()
        guard stored == expected else { throw BearerError.storedCopyChanged(from: expected, to: stored) }
        try await write(state)
    }

    /// Does nothing: the store needs no room set aside.
    public func prepareToSave() async throws {}

    /// `nil`: the lock lasts until the body returns.
    public var exchangeDeadline: ContinuousClock.Instant? { nil }
}

extension SessionStore {
    /// The keys of ``keys()`` that start with `prefix`.
    public func keys(startingWith prefix: String) async throws -> [String] {
        try await keys().filter { $0.hasPrefix(prefix) }
    }

    /// Saves `state` under `key`, over whatever is stored, under the key's lock: for a new sign-in
    /// an app made itself, or an import.
    ///
    /// - Parameters:
    ///   - state: The session.
    ///   - key: The session's key.
    /// - Throws: ``BearerError/Kind/storageFailure`` when it cannot be written; the previous item
    ///   is then unchanged.
    public func save(_ state: AuthState, key: String) async throws {
        try await withExclusiveAccess(to: key) { access in try await access.write(state) }
    }

    /// Removes the session saved under `key`, under the key's lock.
    ///
    /// - Parameter key: The session's key.
    /// - Throws: ``BearerError/Kind/storageFailure`` when it cannot be removed.
    public func remove(key: String) async throws {
        try await withExclusiveAccess(to: key) { access in try await access.remove() }
    }
}
