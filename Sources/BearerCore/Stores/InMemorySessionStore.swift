#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A ``SessionStore`` that keeps sessions in memory, for tests and for apps that never persist.
///
/// Sessions are kept in their serialized form, so what comes back is exactly what a persistent
/// store would return.
public actor InMemorySessionStore: SessionStore, PendingSignInStore {
    private var items: [String: Data] = [:]
    private var pendingSignIns: [String: Data] = [:]
    private let locks = AsyncKeyedLock()
    /// The logout tokens this store accepted (see ``BackChannelLogoutStore``).
    let seenLogoutTokens = SeenLogoutTokens()

    /// Creates an empty store.
    public init() {}

    /// Reads the session saved under `key`.
    public func load(key: String) async throws -> AuthState? {
        guard let bytes = items[key] else { return nil }
        return try AuthState(encoded: bytes)
    }

    private func write(_ state: AuthState, key: String) throws {
        items[key] = try state.encoded()
    }

    private func removeItem(key: String) {
        items[key] = nil
    }

    /// The keys of the saved sessions, sorted.
    public func keys() async throws -> [String] {
        items.keys.sorted()
    }

    /// Keeps `pending` under its `state` (see ``PendingSignInStore``).
    public func savePendingSignIn(_ pending: PendingSignIn) async throws {
        pendingSignIns[pending.state] = try pending.encoded()
    }

    /// Removes and returns the pending sign-in kept under `state`.
    public func takePendingSignIn(state: String) async throws -> PendingSignIn? {
        guard let bytes = pendingSignIns.removeValue(forKey: state) else { return nil }
        return try PendingSignIn(encoded: bytes)
    }

    /// Runs `body` while holding the lock of `key` (within this process).
    public nonisolated func withExclusiveAccess<Result: Sendable>(
        to key: String,
        _ body: @Sendable (_ access: Access) async throws -> Result
    ) async throws -> Result {
        try await locks.withLock(key) { try await body(Access(store: self, key: key)) }
    }

    /// A key's session in memory, while its lock is held.
    public struct Access: ExclusiveSessionAccess {
        let store: InMemorySessionStore
        let key: String

        /// Reads the key's session.
        public func load() async throws -> AuthState? {
            try await store.load(key: key)
        }

        /// Writes `state` over whatever is stored.
        public func write(_ state: AuthState) async throws {
            try await store.write(state, key: key)
        }

        /// Removes the key's session.
        public func remove() async throws {
            await store.removeItem(key: key)
        }
    }
}
