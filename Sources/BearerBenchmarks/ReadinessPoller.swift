@_spi(Internals) import BearerCore
import CReadinessPoller

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One thread that waits in epoll for the sockets of non-blocking libpq connections and resumes
/// the task waiting for each: the least a PostgreSQL store can do to wait for the server without
/// blocking a thread of Swift's cooperative pool. Starting a wait wakes no thread (the socket is
/// armed in the epoll set the thread already waits on); only the resumption hops to the pool.
final class ReadinessPoller: @unchecked Sendable {
    private let poller: Int32
    private let lock = Lock()
    // Guarded by `lock`.
    private var waiters: [Int32: CheckedContinuation<Bool, Never>] = [:]
    private var hasFailed = false

    private init(poller: Int32) {
        self.poller = poller
    }

    /// Starts the poller's thread, or returns `nil` where epoll is missing. The thread lives as
    /// long as the process.
    static func start() -> ReadinessPoller? {
        let descriptor = readiness_poller_create()
        guard descriptor >= 0 else { return nil }
        let poller = ReadinessPoller(poller: descriptor)
        guard DetachedThread.start({ poller.loop() }) else {
            close(descriptor)
            return nil
        }
        return poller
    }

    private func loop() {
        while true {
            let descriptor = readiness_poller_wait(poller)
            guard descriptor >= 0 else {
                if errno == EINTR { continue }
                // epoll failed for good: every wait, present and future, fails.
                let stranded = lock.withLock {
                    hasFailed = true
                    defer { waiters = [:] }
                    return Array(waiters.values)
                }
                for waiter in stranded { waiter.resume(returning: false) }
                return
            }
            lock.withLock { waiters.removeValue(forKey: descriptor) }?.resume(returning: true)
        }
    }

    /// Suspends until `descriptor` is readable; `false` when it could not be watched.
    func readable(_ descriptor: Int32) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let isWaiting: Bool = lock.withLock {
                if hasFailed { return false }
                precondition(waiters[descriptor] == nil, "one wait per socket at a time")
                waiters[descriptor] = continuation
                return true
            }
            guard isWaiting else { return continuation.resume(returning: false) }
            if readiness_poller_arm(poller, descriptor) != 0 {
                lock.withLock { waiters.removeValue(forKey: descriptor) }?.resume(returning: false)
            }
        }
    }
}
