#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``Lock`` with a condition to wait on, for a thread that is not a Swift task and sleeps
/// until another thread hands it work (the PostgreSQL store's connection threads).
///
/// The mutex and the condition are allocated, so their addresses never move: a POSIX mutex
/// must not be passed as `&property`, which Swift may copy and which its exclusivity checks
/// treat as a long write while a thread waits.
package final class ConditionLock: @unchecked Sendable {
    // Unchecked: the mutex and condition are only touched through pthread calls.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// Creates an unlocked lock.
    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock, then wakes one waiting thread.
    ///
    /// - Parameter body: The change a waiter waits for.
    /// - Returns: What `body` returns.
    package func withLockSignalling<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_signal(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body()
    }

    /// Blocks the calling thread until `isReady` holds, then runs `body`, both under the lock.
    ///
    /// - Parameters:
    ///   - isReady: Checked under the lock, first at once, then after each signal.
    ///   - body: Runs under the lock once `isReady` holds.
    /// - Returns: What `body` returns.
    package func withLock<Result>(waitingUntil isReady: () -> Bool, _ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !isReady() { pthread_cond_wait(condition, mutex) }
        return try body()
    }
}
