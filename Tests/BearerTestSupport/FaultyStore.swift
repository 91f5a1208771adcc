public import Bearer

/// A ``SessionStore`` over an ``InMemorySessionStore`` whose saves can be made to fail, and which
/// counts what it is asked to do.
public actor FaultyStore: SessionStore {
    private let base = InMemorySessionStore()
    /// Whether saves fail.
    public var failsSaves = false
    /// How many saves were attempted.
    public private(set) var saveCount = 0

    /// Creates an empty store.
    public init() {}

    /// Makes saves fail or succeed.
    ///
    /// - Parameter fails: Whether saves fail.
    public func setFailsSaves(_ fails: Bool) {
        failsSaves = fails
    }

    /// Reads from the underlying store.
    public func load(key: String) async throws -> AuthState? {
        try await base.load(key: key)
    }

    /// Saves to the underlying store, or fails.
    public func save(_ state: AuthState, key: String) async throws {
        saveCount += 1
        if failsSaves { throw BearerError.storageFailure("The test store refuses saves.") }
        try await base.save(state, key: key)
    }

    /// Removes from the underlying store.
    public func remove(key: String) async throws {
        try await base.remove(key: key)
    }

    /// The keys of the saved sessions.
    public func keys() async throws -> [String] {
        try await base.keys()
    }

    /// Locks through the underlying store.
    public nonisolated func withExclusiveAccess<Result: Sendable>(
        to key: String,
        _ body: @Sendable () async throws -> Result
    ) async throws -> Result {
        try await base.withExclusiveAccess(to: key, body)
    }
}
