package import Foundation

/// One showing of an in-app browser sheet, as the task that waits for it sees it: the result is
/// delivered once, whether the sheet's completion, a failure to start or the task's cancellation
/// comes first, and whichever thread it comes on. The platform-neutral half of
/// `ASWebAuthenticationSessionAgent`, tested on every platform.
package final class WebAuthenticationAttempt: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<AuthorizationAgentOutcome, any Error>?
    private var result: Result<AuthorizationAgentOutcome, any Error>?
    private var cancelled = false

    /// Creates an attempt that has not started.
    package init() {}

    /// Whether the task was cancelled.
    package var isCancelled: Bool { lock.withLock { cancelled } }

    /// Whether the result is known (the sheet need not be shown, or is over).
    package var isFinished: Bool { lock.withLock { result != nil } }

    /// Lets `continuation` receive the result; at once when it is already known.
    package func attach(_ continuation: CheckedContinuation<AuthorizationAgentOutcome, any Error>) {
        let known = lock.withLock { () -> Result<AuthorizationAgentOutcome, any Error>? in
            if result == nil { self.continuation = continuation }
            return result
        }
        if let known { continuation.resume(with: known) }
    }

    /// The sheet's completion: a callback URL or an error, mapped by ``WebAuthenticationCompletion``.
    package func finish(redirect: URL?, error: (any Error)?) {
        let cancelled = isCancelled
        deliver(
            Result {
                try WebAuthenticationCompletion.outcome(redirect: redirect, error: error, taskCancelled: cancelled)
            })
    }

    /// The sheet could not be shown.
    package func fail(_ error: any Error) {
        deliver(.failure(error))
    }

    /// The task was cancelled: the waiter gets `CancellationError` now, whatever the sheet does.
    package func cancel() {
        lock.withLock { cancelled = true }
        deliver(.failure(CancellationError()))
    }

    private func deliver(_ outcome: Result<AuthorizationAgentOutcome, any Error>) {
        let waiting = lock.withLock { () -> CheckedContinuation<AuthorizationAgentOutcome, any Error>? in
            guard result == nil else { return nil }
            result = outcome
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(with: outcome)
    }
}
