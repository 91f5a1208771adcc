@_spi(Internals) import BearerCore

/// A small pool of connections, each on a thread of its own. Connections open on first use and
/// are replaced when broken; a caller waits for a free one at most `waitTimeout`.
///
/// The pool's state sits behind a lock rather than in an actor: taking a free connection, the
/// common case, then costs no hop between executors, only the hop to the connection's thread.
/// (`@unchecked`: `state` is touched only while holding `lock`.)
final class ConnectionPool: @unchecked Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<PooledConnection, any Error>
    }

    /// What the lock guards.
    private struct State {
        var idle: [PooledConnection] = []
        var created = 0
        var waiters: [Waiter] = []
        var nextWaiter: UInt64 = 0
        var isClosed = false
    }

    private let settings: ConnectionSettings
    private let size: Int
    private let waitTimeout: Duration
    private let lock = Lock()
    private var state = State()

    init(settings: ConnectionSettings, size: Int, waitTimeout: Duration) {
        self.settings = settings
        self.size = size
        self.waitTimeout = waitTimeout
    }

    private enum Decision {
        case take(PooledConnection)
        case open
        case wait(UInt64)
        case closed
    }

    /// Takes a free connection, opening a new place when the pool is not full (or when
    /// `beyondSize`), or waits in turn.
    ///
    /// - Parameters:
    ///   - deadline: When to stop waiting; `waitTimeout` from now when `nil`.
    ///   - beyondSize: Whether to open a place beyond the pool's size rather than wait, for a
    ///     caller that holds one of its places already (a lock's holder reaching another key);
    ///     such a place is closed when it comes back with no waiter to take it.
    /// - Throws: ``PostgresSessionStoreError/Kind/poolTimeout`` at the deadline,
    ///   ``PostgresSessionStoreError/Kind/closed`` after ``close()``, `CancellationError` when the
    ///   calling task is cancelled while it waits (it then leaves the queue at once).
    func checkOut(until deadline: ContinuousClock.Instant? = nil, beyondSize: Bool = false) async throws
        -> PooledConnection
    {
        let decision: Decision = lock.withLock {
            if state.isClosed { return .closed }
            if let connection = state.idle.popLast() { return .take(connection) }
            if state.created < size || beyondSize {
                state.created += 1
                return .open
            }
            state.nextWaiter += 1
            return .wait(state.nextWaiter)
        }
        switch decision {
        case .closed:
            throw PostgresSessionStoreError.closed()
        case .take(let connection):
            return connection
        case .open:
            do {
                return try PooledConnection(settings: settings)
            } catch {
                lock.withLock { state.created -= 1 }
                throw error
            }
        case .wait(let id):
            let deadline = deadline ?? ContinuousClock.now + waitTimeout
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    // A connection may have come back since the decision: take it rather than wait.
                    let now: Result<PooledConnection, any Error>? = lock.withLock {
                        if state.isClosed { return .failure(PostgresSessionStoreError.closed()) }
                        if let connection = state.idle.popLast() { return .success(connection) }
                        // Checked under the lock that the cancellation handler takes too.
                        if Task.isCancelled { return .failure(CancellationError()) }
                        state.waiters.append(Waiter(id: id, continuation: continuation))
                        return nil
                    }
                    if let now { return continuation.resume(with: now) }
                    // Started once the waiter is in the queue, so that however short the timeout,
                    // the expiry finds it.
                    Task { [weak self] in
                        try? await Task.sleep(until: deadline, clock: .continuous)
                        self?.remove(
                            id,
                            failing: PostgresSessionStoreError.poolTimeout(
                                "All \(self?.size ?? 0) connections of the session store stayed busy for longer than "
                                    + "the lock timeout; try again, or give the store a larger pool."))
                    }
                }
            } onCancel: {
                remove(id, failing: CancellationError())
            }
        }
    }

    /// Returns a connection to the pool, handing it to the longest waiter if there is one; one
    /// the pool has beyond its size, with no waiter, is closed.
    func checkIn(_ connection: PooledConnection) {
        let (waiter, closes): (Waiter?, Bool) = lock.withLock {
            if state.isClosed { return (nil, true) }
            if state.waiters.isEmpty {
                if state.created > size {
                    state.created -= 1
                    return (nil, true)
                }
                state.idle.append(connection)
                return (nil, false)
            }
            return (state.waiters.removeFirst(), false)
        }
        if closes {
            Task { await connection.close() }
        } else {
            waiter?.continuation.resume(returning: connection)
        }
    }

    /// Takes the waiter `id` out of the queue, if it is still there, and fails its wait with `error`.
    private func remove(_ id: UInt64, failing error: any Error) {
        let waiter: Waiter? = lock.withLock {
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: error)
    }

    /// Closes the idle connections now and the others when they come back; later calls fail.
    func close() async {
        let (waiters, idle): ([Waiter], [PooledConnection]) = lock.withLock {
            state.isClosed = true
            defer {
                state.waiters = []
                state.idle = []
            }
            return (state.waiters, state.idle)
        }
        for waiter in waiters { waiter.continuation.resume(throwing: PostgresSessionStoreError.closed()) }
        for connection in idle { await connection.close() }
    }
}

extension ConnectionPool: CustomReflectable {
    /// A mirror read under the lock, so `dump` of a store races no connection thread: the
    /// settings (without the connection string), the pool's size and how many connections it holds.
    var customMirror: Mirror {
        let (idle, created, waiting) = lock.withLock { (state.idle.count, state.created, state.waiters.count) }
        return Mirror(
            self,
            children: [
                "settings": settings, "size": size, "waitTimeout": waitTimeout, "idle": idle, "created": created,
                "waiting": waiting,
            ], displayStyle: .class)
    }
}
