@_spi(Internals) import BearerCore

/// A thread of its own that runs one connection's blocking libpq calls, one job at a time, so that
/// no libpq call ever blocks a thread of Swift's cooperative pool.
///
/// Jobs run in the order they were submitted; ``run(_:)`` suspends the calling task (without
/// blocking its thread) until its job has run. The thread ends after ``stop()`` once its queue is
/// empty.
final class ConnectionThread: @unchecked Sendable {
    private let lock = Lock()
    // Guarded by `lock`.
    private var jobs: [() -> Void] = []
    private var stopping = false

    private init() {}

    /// Starts a thread.
    ///
    /// - Throws: ``PostgresSessionStoreError/Kind/connectionFailed`` when the system cannot start a thread.
    static func start() throws -> ConnectionThread {
        let thread = ConnectionThread()
        guard DetachedThread.start({ thread.loop() }) else {
            throw PostgresSessionStoreError.connectionFailed(
                "The system could not start a thread for a database connection.", isTransient: true)
        }
        return thread
    }

    private func loop() {
        while let job = next() { job() }
    }

    private func next() -> (() -> Void)? {
        lock.withLock(
            waitingUntil: { !jobs.isEmpty || stopping },
            { jobs.isEmpty ? nil : jobs.removeFirst() })
    }

    private func submit(_ job: @escaping () -> Void) {
        lock.withLockSignalling { jobs.append(job) }
    }

    /// Runs `work` on this thread and returns what it returns.
    ///
    /// - Parameter work: Blocking work; it must not capture the calling task's isolated state.
    /// - Returns: What `work` returns.
    /// - Throws: What `work` throws.
    func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            submit { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Lets the thread end once the jobs already submitted have run.
    func stop() {
        lock.withLockSignalling { stopping = true }
    }
}
