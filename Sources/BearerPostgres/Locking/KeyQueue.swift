import BearerCore

/// The process's own queue for each session key: tasks that want the same key's lock take turns
/// here, first come first served, before they take a pooled connection, so that a key many
/// tasks wait for holds at most one connection while the others' keys go on.
///
/// (`@unchecked`: `turns` and `nextID` are touched only while holding `lock`.)
final class KeyQueue: @unchecked Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = Lock()
    /// The keys whose turn is taken, each with the tasks waiting for it in order.
    private var turns: [String: [Waiter]] = [:]
    private var nextID: UInt64 = 0

    /// Waits for `key`'s turn.
    ///
    /// - Parameters:
    ///   - key: The session's key.
    ///   - deadline: When to give up.
    ///   - timeout: The error to give up with.
    /// - Throws: `timeout` at the deadline, `CancellationError` when the task is cancelled; the
    ///   task then leaves the queue at once.
    func enter(
        _ key: String, until deadline: ContinuousClock.Instant, timeout: @escaping @Sendable () -> any Error
    ) async throws {
        let id: UInt64? = lock.withLock {
            guard turns[key] != nil else {
                turns[key] = []
                return nil
            }
            nextID += 1
            return nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled: Bool = lock.withLock {
                    // Checked under the lock that the cancellation handler takes too.
                    if Task.isCancelled { return true }
                    turns[key, default: []].append(Waiter(id: id, continuation: continuation))
                    return false
                }
                if cancelled { return continuation.resume(throwing: CancellationError()) }
                Task { [weak self] in
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    self?.remove(id, of: key, failing: timeout())
                }
            }
        } onCancel: {
            remove(id, of: key, failing: CancellationError())
        }
    }

    /// Ends the current turn of `key`, handing it to the longest waiter if there is one.
    func leave(_ key: String) {
        let next: Waiter? = lock.withLock {
            guard var waiters = turns[key], !waiters.isEmpty else {
                turns[key] = nil
                return nil
            }
            let first = waiters.removeFirst()
            turns[key] = waiters
            return first
        }
        next?.continuation.resume()
    }

    private func remove(_ id: UInt64, of key: String, failing error: any Error) {
        let waiter: Waiter? = lock.withLock {
            guard let index = turns[key]?.firstIndex(where: { $0.id == id }) else { return nil }
            return turns[key]?.remove(at: index)
        }
        waiter?.continuation.resume(throwing: error)
    }
}
