#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// One showing of an authorization page, as the task that waits for it sees it: the redirect (or
/// the failure) is delivered once, whether the page's answer, a failure or the task's cancellation comes first,
/// and whichever thread it comes on; a result that comes before anyone waits is kept. The
/// platform-neutral core of `ASWebAuthenticationSessionAgent` and ``DefaultBrowserAgent``.
@_spi(Bridge) public final class AgentAttempt: @unchecked Sendable {
    private let lock = Lock()
    private var continuation: CheckedContinuation<URL, any Error>?
    private var result: Result<URL, any Error>?
    private var cancelled = false

    /// Creates an attempt that has not started.
    @_spi(Bridge) public init() {}

    /// Whether the task was cancelled.
    @_spi(Bridge) public var isCancelled: Bool { lock.withLock { cancelled } }

    /// Whether the result is known (the sheet need not be shown, or is over).
    @_spi(Bridge) public var isFinished: Bool { lock.withLock { result != nil } }

    /// Lets `continuation` receive the result; at once when it is already known.
    @_spi(Bridge) public func attach(_ continuation: CheckedContinuation<URL, any Error>) {
        let known = lock.withLock { () -> Result<URL, any Error>? in
            if result == nil { self.continuation = continuation }
            return result
        }
        if let known { continuation.resume(with: known) }
    }

    /// The page could not be shown.
    @_spi(Bridge) public func fail(_ error: any Error) {
        deliver(.failure(error))
    }

    /// The task was cancelled: the waiter gets `CancellationError` now, whatever the page does.
    @_spi(Bridge) public func cancel() {
        lock.withLock { cancelled = true }
        deliver(.failure(CancellationError()))
    }

    /// Delivers `outcome` if nothing was delivered before; later outcomes are ignored.
    @_spi(Bridge) public func deliver(_ outcome: Result<URL, any Error>) {
        let waiting = lock.withLock { () -> CheckedContinuation<URL, any Error>? in
            guard result == nil else { return nil }
            result = outcome
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(with: outcome)
    }
}
