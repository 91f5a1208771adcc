#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A flag that a task's cancellation handler sets and the code it cancels reads from any thread.
final class CancellationSignal: @unchecked Sendable {
    private let lock = Lock()
    private var signalled = false

    /// Whether the task was cancelled.
    var isSignalled: Bool { lock.withLock { signalled } }

    /// Records the cancellation.
    func signal() {
        lock.withLock { signalled = true }
    }
}
