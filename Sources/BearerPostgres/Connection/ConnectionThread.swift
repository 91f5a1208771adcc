#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thread of its own that runs one connection's blocking libpq calls, one job at a time, so that
/// no libpq call ever blocks a thread of Swift's cooperative pool.
///
/// Jobs run in the order they were submitted; ``run(_:)`` suspends the calling task (without
/// blocking its thread) until its job has run. The thread ends after ``stop()`` once its queue is
/// empty.
final class ConnectionThread: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    // Guarded by `mutex`.
    private var jobs: [() -> Void] = []
    private var stopping = false

    private init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    /// Starts a thread.
    ///
    /// - Throws: ``PostgresSessionStoreError/Kind/connectionFailed`` when the system cannot start a thread.
    static func start() throws -> ConnectionThread {
        let thread = ConnectionThread()
        let context = Unmanaged.passRetained(thread).toOpaque()
        var handle = pthread_t()
        #if canImport(Darwin)
            let status = pthread_create(&handle, nil, { ConnectionThread.main(Optional($0)) }, context)
        #else
            let status = pthread_create(&handle, nil, { ConnectionThread.main($0) }, context)
        #endif
        guard status == 0 else {
            Unmanaged<ConnectionThread>.fromOpaque(context).release()
            throw PostgresSessionStoreError.connectionFailed(
                "The system could not start a thread for a database connection (error \(status)).",
                isTransient: true
            )
        }
        pthread_detach(handle)
        return thread
    }

    deinit {
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    private static func main(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let context else { return nil }
        let thread = Unmanaged<ConnectionThread>.fromOpaque(context).takeRetainedValue()
        thread.loop()
        return nil
    }

    private func loop() {
        while let job = next() { job() }
    }

    private func next() -> (() -> Void)? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while jobs.isEmpty && !stopping { pthread_cond_wait(&condition, &mutex) }
        guard !jobs.isEmpty else { return nil }
        return jobs.removeFirst()
    }

    private func submit(_ job: @escaping () -> Void) {
        pthread_mutex_lock(&mutex)
        jobs.append(job)
        pthread_cond_signal(&condition)
        pthread_mutex_unlock(&mutex)
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
        pthread_mutex_lock(&mutex)
        stopping = true
        pthread_cond_signal(&condition)
        pthread_mutex_unlock(&mutex)
    }
}
