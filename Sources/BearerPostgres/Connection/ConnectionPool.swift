/// A small pool of connections, each on a thread of its own. Connections open on first use and
/// are replaced when broken; a caller waits for a free one at most `waitTimeout`.
actor ConnectionPool {
    private let settings: ConnectionSettings
    private let size: Int
    private let waitTimeout: Duration
    private var idle: [PooledConnection] = []
    private var created = 0
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<PooledConnection, any Error>)] = []
    private var nextWaiter: UInt64 = 0
    private var isClosed = false

    init(settings: ConnectionSettings, size: Int, waitTimeout: Duration) {
        self.settings = settings
        self.size = size
        self.waitTimeout = waitTimeout
    }

    /// Takes a free connection, opening a new place when the pool is not full, or waits.
    ///
    /// - Throws: ``PostgresSessionStoreError/Kind/poolTimeout`` after `waitTimeout`,
    ///   ``PostgresSessionStoreError/Kind/closed`` after ``close()``.
    func checkOut() async throws -> PooledConnection {
        guard !isClosed else { throw PostgresSessionStoreError.closed() }
        if let connection = idle.popLast() { return connection }
        if created < size {
            let connection = try PooledConnection(settings: settings)
            created += 1
            return connection
        }
        nextWaiter += 1
        let id = nextWaiter
        let timeout = waitTimeout
        Task { [weak self] in
            try? await Task.sleep(for: timeout)
            await self?.expire(id)
        }
        return try await withCheckedThrowingContinuation { continuation in
            waiters.append((id, continuation))
        }
    }

    /// Returns a connection to the pool, handing it to the longest waiter if there is one.
    func checkIn(_ connection: PooledConnection) {
        if isClosed {
            Task { await connection.close() }
        } else if waiters.isEmpty {
            idle.append(connection)
        } else {
            waiters.removeFirst().continuation.resume(returning: connection)
        }
    }

    private func expire(_ id: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        let waiter = waiters.remove(at: index)
        waiter.continuation.resume(
            throwing: PostgresSessionStoreError.poolTimeout(
                "All \(size) connections of the session store stayed busy for longer than the lock timeout; "
                    + "try again, or give the store a larger pool."))
    }

    /// Closes the idle connections now and the others when they come back; later calls fail.
    func close() async {
        isClosed = true
        for waiter in waiters { waiter.continuation.resume(throwing: PostgresSessionStoreError.closed()) }
        waiters = []
        let closing = idle
        idle = []
        for connection in closing { await connection.close() }
    }
}
