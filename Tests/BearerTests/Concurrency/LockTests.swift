import Testing

@_spi(Fleet) @_spi(Internals) @testable import BearerCore

@Suite("Lock: a thread sleeps until another hands it work")
struct LockTests {
    /// What the two threads share, guarded by `lock`.
    private final class Mailbox: @unchecked Sendable {
        let lock = Lock()
        var items: [Int] = []
        var isClosed = false
    }

    @Test("A waiting thread takes every item in order and ends once the box closes")
    func handsOverInOrder() async throws {
        let mailbox = Mailbox()
        let received: [Int] = try await withCheckedThrowingContinuation { continuation in
            let started = DetachedThread.start {
                var taken: [Int] = []
                while let item = mailbox.lock.withLock(
                    waitingUntil: { !mailbox.items.isEmpty || mailbox.isClosed },
                    { mailbox.items.isEmpty ? nil : mailbox.items.removeFirst() })
                {
                    taken.append(item)
                }
                continuation.resume(returning: taken)
            }
            guard started else { return continuation.resume(throwing: CancellationError()) }
            for item in 1...1000 { mailbox.lock.withLockSignalling { mailbox.items.append(item) } }
            mailbox.lock.withLockSignalling { mailbox.isClosed = true }
        }
        #expect(received == Array(1...1000))
    }

    @Test("withLock returns at once when the condition already holds")
    func readyAtOnce() {
        let lock = Lock()
        #expect(lock.withLock(waitingUntil: { true }, { 42 }) == 42)
    }
}
