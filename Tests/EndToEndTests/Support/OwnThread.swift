import Foundation

/// Runs `work`, which blocks (reading a child's pipe, waiting for it to end), on a thread of its
/// own. The cooperative pool has as many threads as the machine has cores, and every suite running
/// meanwhile needs them: a suite blocking one stalls the lock waits and timed steps of all the others.
func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
