/// A lock per key for tasks: waiting suspends the task instead of blocking a thread, and waiters
/// get the lock in the order they asked for it.
package actor AsyncKeyedLock {
    private var held: Set<String> = []
    private var waiters: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// Creates a lock with no key held.
    package init() {}

    /// Runs `body` while holding the lock of `key`.
    package nonisolated func withLock<Result: Sendable>(
        _ key: String,
        _ body: @Sendable () async throws -> Result
    ) async throws -> Result {
        await acquire(key)
        do {
            let result = try await body()
            await release(key)
            return result
        } catch {
            await release(key)
            throw error
        }
    }

    private func acquire(_ key: String) async {
        guard held.contains(key) else {
            held.insert(key)
            return
        }
        await withCheckedContinuation { continuation in
            waiters[key, default: []].append(continuation)
        }
    }

    private func release(_ key: String) {
        guard var queue = waiters[key], !queue.isEmpty else {
            held.remove(key)
            return
        }
        let next = queue.removeFirst()
        waiters[key] = queue.isEmpty ? nil : queue
        next.resume()
    }
}
