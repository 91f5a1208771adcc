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

    /// Counts a save, and fails it when saves fail.
    private func attemptSave() throws {
        saveCount += 1
        if failsSaves { throw BearerError.storageFailure("The test store refuses saves.") }
    }

    /// The keys of the saved sessions.
    public func keys() async throws -> [String] {
        try await base.keys()
    }

    /// Locks through the underlying store.
    public nonisolated func withExclusiveAccess<Result: Sendable>(
        to key: String,
        _ body: @Sendable (_ access: Access) async throws -> Result
    ) async throws -> Result {
        try await base.withExclusiveAccess(to: key) { access in try await body(Access(store: self, base: access)) }
    }

    /// The underlying store's access, whose writes count and can be made to fail.
    public struct Access: ExclusiveSessionAccess {
        let store: FaultyStore
        let base: InMemorySessionStore.Access

        /// Reads from the underlying store.
        public func load() async throws -> AuthState? {
            try await base.load()
        }

        /// Writes to the underlying store, or fails.
        public func write(_ state: AuthState) async throws {
            try await store.attemptSave()
            try await base.write(state)
        }

        /// Removes from the underlying store.
        public func remove() async throws {
            try await base.remove()
        }
    }
}
