import CReadinessPoller

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One thread that waits in epoll for the sockets of non-blocking libpq connections and resumes
/// the task waiting for each: the least a PostgreSQL store can do to wait for the server without
/// blocking a thread of Swift's cooperative pool. Starting a wait wakes no thread (the socket is
/// armed in the epoll set the thread already waits on); only the resumption hops to the pool.
final class ReadinessPoller: @unchecked Sendable {
    private let poller: Int32
    private var mutex = pthread_mutex_t()
    // Guarded by `mutex`.
    private var waiters: [Int32: CheckedContinuation<Bool, Never>] = [:]
    private var armed: Set<Int32> = []

    private init(poller: Int32) {
        self.poller = poller
        pthread_mutex_init(&mutex, nil)
    }

    /// Starts the poller's thread, or returns `nil` where epoll is missing. The thread lives as
    /// long as the process.
    static func start() -> ReadinessPoller? {
        let descriptor = readiness_poller_create()
        guard descriptor >= 0 else { return nil }
        let poller = ReadinessPoller(poller: descriptor)
        let context = Unmanaged.passRetained(poller).toOpaque()
        var handle = pthread_t()
        #if canImport(Darwin)
            let status = pthread_create(&handle, nil, { ReadinessPoller.main(Optional($0)) }, context)
        #else
            let status = pthread_create(&handle, nil, { ReadinessPoller.main($0) }, context)
        #endif
        guard status == 0 else {
            Unmanaged<ReadinessPoller>.fromOpaque(context).release()
            return nil
        }
        pthread_detach(handle)
        return poller
    }

    private static func main(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let context else { return nil }
        Unmanaged<ReadinessPoller>.fromOpaque(context).takeRetainedValue().loop()
        return nil
    }

    private func loop() {
        while true {
            let descriptor = readiness_poller_wait(poller)
            guard descriptor >= 0 else { continue }
            pthread_mutex_lock(&mutex)
            let waiter = waiters.removeValue(forKey: descriptor)
            pthread_mutex_unlock(&mutex)
            waiter?.resume(returning: true)
        }
    }

    /// Suspends until `descriptor` is readable; `false` when it could not be watched.
    func readable(_ descriptor: Int32) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            pthread_mutex_lock(&mutex)
            waiters[descriptor] = continuation
            let isFirst = armed.insert(descriptor).inserted
            pthread_mutex_unlock(&mutex)
            if readiness_poller_arm(poller, descriptor, isFirst ? 1 : 0) != 0 {
                pthread_mutex_lock(&mutex)
                let waiter = waiters.removeValue(forKey: descriptor)
                pthread_mutex_unlock(&mutex)
                waiter?.resume(returning: false)
            }
        }
    }
}
