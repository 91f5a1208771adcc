#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs blocking work (a `poll` loop) on a thread of its own, never on Swift's cooperative pool.
@_spi(Internals) public enum DetachedThread {
    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts a detached thread that runs `body`.
    ///
    /// - Parameter body: The work.
    /// - Returns: Whether the thread started; `false` when the system refused one.
    @_spi(Internals) public static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
            let started = pthread_create(&thread, nil, { Self.run($0) }, work)
            if started == 0, let thread { pthread_detach(thread) }
        #else
            var thread = pthread_t()
            let started = pthread_create(&thread, nil, { Self.run($0) }, work)
            if started == 0 { pthread_detach(thread) }
        #endif
        guard started == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            return false
        }
        return true
    }

    private static func run(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let pointer else { return nil }
        Unmanaged<Work>.fromOpaque(pointer).takeRetainedValue().body()
        return nil
    }
}
