#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A mutual-exclusion lock over a POSIX mutex, for the few places where state is shared with a
/// thread that is not a Swift task (the loopback listener's poll loop, a sheet's completion
/// handler). FoundationEssentials has no `NSLock`, and `Synchronization.Mutex` needs newer Apple
/// systems than the package supports.
package final class Lock: @unchecked Sendable {
    // Unchecked: the mutex is only touched through pthread calls, which are thread-safe.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// Creates an unlocked lock.
    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    ///
    /// - Parameter body: The work to do under the lock.
    /// - Returns: What `body` returns.
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
