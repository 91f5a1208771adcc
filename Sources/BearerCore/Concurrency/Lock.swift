#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A mutual-exclusion lock over a POSIX mutex, for the few places where state is shared with a
/// thread that is not a Swift task (the loopback listener's poll loop, a sheet's completion
/// handler, the PostgreSQL store's connection threads), with a condition such a thread can sleep
/// on until another hands it work. FoundationEssentials has no `NSLock`, and
/// `Synchronization.Mutex` needs newer Apple systems than the package supports.
///
/// The mutex and the condition are allocated, so their addresses never move: a POSIX mutex must
/// not be passed as `&property`, which Swift may copy and which its exclusivity checks treat as a
/// long write while a thread waits.
@_spi(Internals) public final class Lock: @unchecked Sendable {
    // Unchecked: the mutex and condition are only touched through pthread calls, which are thread-safe.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// Creates an unlocked lock.
    @_spi(Internals) public init() {
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

    /// Runs `body` holding the lock.
    ///
    /// - Parameter body: The work to do under the lock.
    /// - Returns: What `body` returns.
    @_spi(Internals) public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Runs `body` holding the lock, then wakes one thread waiting in
    /// ``withLock(waitingUntil:_:)``.
    ///
    /// - Parameter body: The change a waiter waits for.
    /// - Returns: What `body` returns.
    @_spi(Internals) public func withLockSignalling<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_signal(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body()
    }

    /// Blocks the calling thread until `isReady` holds, then runs `body`, both under the lock.
    /// Only for threads of their own, never for a task on Swift's cooperative pool.
    ///
    /// - Parameters:
    ///   - isReady: Checked under the lock, first at once, then after each signal.
    ///   - body: Runs under the lock once `isReady` holds.
    /// - Returns: What `body` returns.
    @_spi(Internals) public func withLock<Result>(waitingUntil isReady: () -> Bool, _ body: () throws -> Result)
        rethrows -> Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !isReady() { pthread_cond_wait(condition, mutex) }
        return try body()
    }
}
