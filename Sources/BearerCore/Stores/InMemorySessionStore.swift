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

    /// Creates an empty store.
    public init() {}

    /// Reads the session saved under `key`.
    public func load(key: String) async throws -> AuthState? {
        guard let bytes = items[key] else { return nil }
        return try AuthState(encoded: bytes)
    }

    /// Saves `state` under `key`.
    public func save(_ state: AuthState, key: String) async throws {
        items[key] = try state.encoded()
    }

    /// Removes the session saved under `key`.
    public func remove(key: String) async throws {
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
        _ body: @Sendable () async throws -> Result
    ) async throws -> Result {
        try await locks.withLock(key, body)
    }
}
