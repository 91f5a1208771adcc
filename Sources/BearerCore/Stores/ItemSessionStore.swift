#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A ``SessionStore`` over ``SessionItems`` that several processes share, such as an app and its
/// widget over the keychain: the decisions of `KeychainSessionStore`, kept apart from the Security
/// framework so that they run, and are tested, everywhere.
///
/// With a ``LockFolder``, ``withExclusiveAccess(to:_:)`` holds that folder's lock file of the key,
/// which every process of the app group sees; ``AuthSession`` re-reads the item under it, refreshes
/// only when the session is still stale, and saves before releasing it, so the app and its
/// extensions send a refresh token once between them. Without one, the lock holds within this
/// process only. With an ``ExpiringActivity`` too, the shared lock is taken and held only inside
/// time the system granted, so that no process is suspended while it holds it.
@_spi(Bridge) @_spi(Testing) public struct ItemSessionStore<Items: SessionItems>: SessionStore {
    /// Where the encoded sessions are kept.
    let items: Items
    /// What tells this store's locks from those of other stores in the same folder (for the
    /// keychain: service and access group).
    let namespace: String
    /// The folder of the locks other processes see, if the store is shared between processes.
    let lockFolder: LockFolder?
    /// The activity that keeps the process running while it holds a lock of ``lockFolder``, where
    /// the system suspends processes in the background.
    let activity: ExpiringActivity?

    /// Creates a store.
    ///
    /// - Parameters:
    ///   - items: Where the encoded sessions are kept.
    ///   - namespace: What tells this store's locks from other stores' in the same folder.
    ///   - lockFolder: The folder of the locks other processes see; `nil` locks within this
    ///     process only.
    ///   - activity: The activity to hold a lock of `lockFolder` in, if any.
    @_spi(Bridge) @_spi(Testing) public init(
        items: Items, namespace: String, lockFolder: LockFolder?, activity: ExpiringActivity? = nil
    ) {
        self.items = items
        self.namespace = namespace
        self.lockFolder = lockFolder
        self.activity = activity
    }

    /// The lock file of `key`: a digest of the namespace and the key, so that any key (an email
    /// address, a name with slashes) gives a short, safe file name, and two stores never share one.
    func lockName(for key: String) -> String {
        let digest = SHA256.hash(Array(namespace.utf8) + [0] + Array(key.utf8))
        let digits = Array("0123456789abcdef".utf8)
        var name: [UInt8] = []
        for byte in digest.prefix(16) {
            name.append(digits[Int(byte >> 4)])
            name.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: name, as: UTF8.self) + ".lock"
    }

    /// Reads the session saved under `key`.
    ///
    /// - Throws: What the items throw, or what ``AuthState/init(encoded:)`` throws; the item is
    ///   left as it is.
    @_spi(Bridge) public func load(key: String) async throws -> AuthState? {
        guard let data = try items.read(key: key) else { return nil }
        return try AuthState(encoded: data)
    }

    /// The keys of the saved sessions, sorted.
    @_spi(Bridge) public func keys() async throws -> [String] {
        try items.keys().sorted()
    }

    /// Runs `body` while holding the lock of `key`: within this process, the lock of the items
    /// (shared by every store of the same namespace), then the lock file of ``lockFolder`` when
    /// there is one, which other processes see, held inside ``activity`` when there is one.
    ///
    /// - Throws: What `body` throws, or ``BearerError/Kind/storageFailure`` when the lock cannot
    ///   be taken (then `body` does not run), or ``BearerError/Kind/timedOut`` when the activity
    ///   got no time or ran out of it (see ``ExpiringActivity/run(_:)``).
    @_spi(Bridge) public func withExclusiveAccess<Result: Sendable>(
        to key: String,
        _ body: @Sendable (_ access: Access) async throws -> Result
    ) async throws -> Result {
        // Every store of this process that reaches the same items (the same namespace) takes the
        // same lock first, with or without a lock folder.
        try await ItemSessionLocks.tasks.withLock(namespace + "\u{0}" + key) {
            guard let lockFolder else { return try await body(Access(items: items, key: key, lock: nil)) }
            return try await lockFolder.withLock(named: lockName(for: key), inside: activity) { lock in
                try await body(Access(items: items, key: key, lock: lock))
            }
        }
    }

    /// A key's item, while its lock is held.
    @_spi(Bridge) public struct Access: ExclusiveSessionAccess {
        let items: Items
        let key: String
        /// The lock file of the lock folder, when the store has one.
        let lock: FileLock?

        /// Reads the key's session; the item is left as it is when it cannot be read.
        @_spi(Bridge) public func load() async throws -> AuthState? {
            guard let data = try items.read(key: key) else { return nil }
            return try AuthState(encoded: data)
        }

        /// Writes `state` over the key's item.
        @_spi(Bridge) public func write(_ state: AuthState) async throws {
            try items.write(try state.encoded(), key: key)
        }

        /// Removes the key's item, and no other.
        @_spi(Bridge) public func remove() async throws {
            try items.delete(key: key)
        }

        /// Checks that the lock folder's lock file is still the one locked, before a refresh is
        /// sent: one removed or replaced while held keeps out no other process.
        ///
        /// - Throws: ``BearerError/Kind/storageFailure``.
        @_spi(Bridge) public func prepareToSave() async throws {
            try lock?.checkStillNamedByPath()
        }
    }
}

/// The in-process locks of stores without a lock folder, shared by every specialization.
private enum ItemSessionLocks {
    static let tasks = AsyncKeyedLock()
}
