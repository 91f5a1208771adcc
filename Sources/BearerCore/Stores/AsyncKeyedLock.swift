/// A lock per key for tasks: waiting suspends the task instead of blocking a thread, and waiters
/// get the lock in the order they asked for it. A wait given a deadline ends at the deadline, or
/// at once when its task is cancelled, and leaves the queue.
@_spi(Fleet) public actor AsyncKeyedLock {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private var held: Set<String> = []
    private var waiters: [String: [Waiter]] = [:]
    private var nextWaiter: UInt64 = 0

    /// Creates a lock with no key held.
    @_spi(Fleet) public init() {}

    /// Runs `body` while holding the lock of `key`.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - deadline: When to stop waiting; `nil` to wait until the key is free, whatever happens
    ///     to the task meanwhile.
    ///   - timeout: The error a wait that reached its deadline throws.
    ///   - body: The work to do holding the lock.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws; `timeout()` at the deadline, `CancellationError` when the
    ///   task was cancelled while it waited with a deadline (`body` did not run then).
    @_spi(Fleet) public nonisolated func withLock<Result: Sendable>(
        _ key: String,
        until deadline: ContinuousClock.Instant? = nil,
        timeout: @escaping @Sendable () -> any Error = { CancellationError() },
        _ body: @Sendable () async throws -> Result
    ) async throws -> Result {
        try await acquire(key, until: deadline, timeout: timeout)
        do {
            let result = try await body()
            await release(key)
            return result
        } catch {
            await release(key)
            throw error
        }
    }

    private func acquire(
        _ key: String, until deadline: ContinuousClock.Instant?, timeout: @escaping @Sendable () -> any Error
    ) async throws {
        guard held.contains(key) else {
            held.insert(key)
            return
        }
        nextWaiter += 1
        let id = nextWaiter
        guard let deadline else {
            return try await withCheckedThrowingContinuation { continuation in
                waiters[key, default: []].append(Waiter(id: id, continuation: continuation))
            }
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiters[key, default: []].append(Waiter(id: id, continuation: continuation))
                Task {
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    self.remove(id, of: key, failing: timeout())
                }
            }
        } onCancel: {
            // Runs once the waiter is queued: the actor finishes this job first.
            Task { await self.remove(id, of: key, failing: CancellationError()) }
        }
    }

    /// Takes the waiter `id` out of `key`'s queue, if it is still there, and fails its wait.
    private func remove(_ id: UInt64, of key: String, failing error: any Error) {
        guard let index = waiters[key]?.firstIndex(where: { $0.id == id }) else { return }
        let waiter = waiters[key]?.remove(at: index)
        if waiters[key]?.isEmpty == true { waiters[key] = nil }
        waiter?.continuation.resume(throwing: error)
    }

    private func release(_ key: String) {
        guard var queue = waiters[key], !queue.isEmpty else {
            held.remove(key)
            return
        }
        let next = queue.removeFirst()
        waiters[key] = queue.isEmpty ? nil : queue
        next.continuation.resume()
    }
}

extension AsyncKeyedLock: CustomReflectable {
    /// A mirror without children: `dump` of a store must not read the actor's state from outside
    /// it, and the keys it holds are the store's business.
    @_spi(Fleet) public nonisolated var customMirror: Mirror { Mirror(self, children: [], displayStyle: .class) }
}
