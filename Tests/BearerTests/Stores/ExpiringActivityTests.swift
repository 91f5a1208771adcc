import Foundation
import Testing

@_spi(Bridge) @_spi(CommandLine) @_spi(Fleet) @_spi(Internals) @_spi(Testing) @testable import BearerCore

@Suite("A shared lock is held only inside time the system granted, and given back before that time ends")
struct ExpiringActivityTests {
    /// A stand-in for `ProcessInfo.performExpiringActivity`: it calls the block on a thread of its
    /// own, as the system does on a concurrent queue, with what the test scripts, and records what
    /// happened in one ordered log.
    final class ScriptedSystem: ExpiringActivityProvider, @unchecked Sendable {
        enum Answer { case grant, refuse }
        private let lock = NSLock()
        private var block: (@Sendable (Bool) -> Void)?
        private var entries: [String] = []
        private let answer: Answer
        private let blockReturned = DispatchSemaphore(value: 0)

        init(_ answer: Answer) { self.answer = answer }

        var log: [String] { lock.withLock { entries } }

        func record(_ entry: String) { lock.withLock { entries.append(entry) } }

        func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {
            precondition(!reason.isEmpty)
            lock.withLock { self.block = block }
            let expired = answer == .refuse
            Thread.detachNewThread {
                block(expired)
                self.record(expired ? "refusal returned" : "activity ended")
                self.blockReturned.signal()
            }
        }

        /// The system takes the time back: it calls the block again, with `true`, on another thread.
        func expire() {
            let block = lock.withLock { self.block }
            record("expired")
            Thread.detachNewThread { block?(true) }
        }

        /// The system takes the time back, and the call of the block with `true` has returned.
        func expireAndWait() async {
            let block = lock.withLock { self.block }
            record("expired")
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread {
                    block?(true)
                    continuation.resume()
                }
            }
        }

        /// Waits (off the cooperative pool) until the first call of the block has returned.
        func waitForActivityToEnd() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread {
                    self.blockReturned.wait()
                    continuation.resume()
                }
            }
        }
    }

    @Test("A granted section runs, and the activity ends only after the section has given its lock back")
    func grantedSectionEndsBeforeActivity() async throws {
        let system = ScriptedSystem(.grant)
        let activity = ExpiringActivity(provider: system)
        let value = try await activity.run {
            system.record("section")
            system.record("lock given back")
            return 7
        }
        await system.waitForActivityToEnd()
        #expect(value == 7)
        #expect(system.log == ["section", "lock given back", "activity ended"])
    }

    @Test("Refused time: the section never runs, nothing is locked, and the error says to try again when active")
    func refusedTimeRunsNothing() async throws {
        let system = ScriptedSystem(.refuse)
        let activity = ExpiringActivity(provider: system)
        let error = await #expect(throws: BearerError.self) {
            try await activity.run { system.record("section") }
        }
        await system.waitForActivityToEnd()
        #expect(error?.kind == .timedOut)
        #expect(error?.reason.contains("nothing was sent") == true)
        #expect(system.log == ["refusal returned"])
    }

    @Test(
        "Time taken back while the request is out: the section is cancelled, and the activity waits for it to wind down"
    )
    func expiryCancelsAndWaits() async throws {
        let system = ScriptedSystem(.grant)
        let activity = ExpiringActivity(provider: system)
        let error = await #expect(throws: BearerError.self) {
            try await activity.run {
                system.record("request sent")
                system.expire()
                do {
                    try await Task.sleep(for: .seconds(3600))
                } catch {
                    system.record("request abandoned")
                }
                system.record("lock given back")
                throw CancellationError()
            }
        }
        await system.waitForActivityToEnd()
        #expect(error?.kind == .timedOut)
        #expect(error?.reason.contains("took back") == true)
        #expect(system.log == ["request sent", "expired", "request abandoned", "lock given back", "activity ended"])
    }

    @Test("A section that answers despite the expiry keeps its answer")
    func answerAfterExpiryIsKept() async throws {
        let system = ScriptedSystem(.grant)
        let activity = ExpiringActivity(provider: system)
        let value = try await activity.run {
            await system.expireAndWait()
            return "saved"
        }
        await system.waitForActivityToEnd()
        #expect(value == "saved")
    }

    @Test("A failure of its own after the time was taken back (the server's answer) is passed on as it is")
    func ownFailureIsKept() async throws {
        let system = ScriptedSystem(.grant)
        let activity = ExpiringActivity(provider: system)
        let error = await #expect(throws: BearerError.self) {
            try await activity.run {
                await system.expireAndWait()
                throw BearerError.userMismatch("another account answered")
            }
        }
        await system.waitForActivityToEnd()
        #expect(error?.kind == .userMismatch)
    }

    @Test("A section that outlasts its budget is cancelled, below the time the system grants")
    func budgetBoundsTheSection() async throws {
        let system = ScriptedSystem(.grant)
        let activity = ExpiringActivity(provider: system, budget: .milliseconds(20))
        let error = await #expect(throws: BearerError.self) {
            try await activity.run {
                try await Task.sleep(for: .seconds(3600))
            }
        }
        await system.waitForActivityToEnd()
        #expect(error?.kind == .timedOut)
        #expect(error?.reason.contains("longer than") == true)
        #expect(ExpiringActivity.defaultBudget < .seconds(30))
    }

    @Test("The shared store takes its lock only inside the activity: refused time leaves the lock file untaken")
    func sharedStoreHoldsItsLockInsideTheActivity() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-activity-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let refused = ItemSessionStore(
            items: MemoryItems(), namespace: "Bearer", lockFolder: LockFolder(directory: folder),
            activity: ExpiringActivity(provider: ScriptedSystem(.refuse)))
        await #expect(throws: BearerError.self) {
            try await refused.withExclusiveAccess(to: "default") { _ in Issue.record("the section ran without time") }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path))

        let system = ScriptedSystem(.grant)
        let granted = ItemSessionStore(
            items: MemoryItems(), namespace: "Bearer", lockFolder: LockFolder(directory: folder),
            activity: ExpiringActivity(provider: system))
        try await granted.withExclusiveAccess(to: "default") { _ in
            let lockFile = folder.appendingPathComponent(granted.lockName(for: "default")).path
            system.record(FileManager.default.fileExists(atPath: lockFile) ? "locked" : "not locked")
        }
        await system.waitForActivityToEnd()
        #expect(system.log == ["locked", "activity ended"])
    }

    @Test("Tasks of one process waiting for the same lock ask for no time of their own until their turn")
    func waitersHoldNoActivity() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-activity-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let system = CountingSystem()
        let store = ItemSessionStore(
            items: MemoryItems(), namespace: "Bearer", lockFolder: LockFolder(directory: folder),
            activity: ExpiringActivity(provider: system))
        let finished = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try await store.withExclusiveAccess(to: "default") { _ in
                        // Sections run one at a time: every other task is still waiting, and has
                        // not asked the system for time.
                        #expect(system.requests - finished.value == 1)
                        try await Task.sleep(for: .milliseconds(5))
                        finished.increment()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(system.requests == 4)
    }

    @Test("The machine: a grant starts the section, an expiry before it refuses, late calls change nothing")
    func stateMachineTransitions() {
        var machine = ExpiringActivity.StateMachine()
        #expect(!machine.mayEndActivity)
        #expect(machine.blockCalled(expired: false) == .startSectionAndWait)
        #expect(machine.blockCalled(expired: false) == .none)
        #expect(machine.budgetElapsed() == .cancelSection)
        #expect(machine.blockCalled(expired: true) == .none)
        #expect(!machine.mayEndActivity)
        #expect(machine.sectionFinished() == .budgetElapsed)
        #expect(machine.mayEndActivity)
        #expect(machine.blockCalled(expired: true) == .none)

        var refused = ExpiringActivity.StateMachine()
        #expect(refused.blockCalled(expired: true) == .refuse)
        #expect(refused.mayEndActivity)
        #expect(refused.blockCalled(expired: false) == .none)

        var expired = ExpiringActivity.StateMachine()
        _ = expired.blockCalled(expired: false)
        #expect(expired.blockCalled(expired: true) == .cancelSection)
        #expect(expired.budgetElapsed() == .none)
        #expect(expired.sectionFinished() == .expired)
    }
}

/// A system that grants every request at once and counts the requests.
private final class CountingSystem: ExpiringActivityProvider, @unchecked Sendable {
    private let lock = NSLock()
    private var made = 0

    var requests: Int { lock.withLock { made } }

    func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {
        lock.withLock { made += 1 }
        Thread.detachNewThread { block(false) }
    }
}

/// A count shared by the sections of a test.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func increment() { lock.withLock { count += 1 } }
}

/// Session items in memory, for the shared store's lock tests.
private struct MemoryItems: SessionItems {
    func read(key: String) throws -> Data? { nil }
    func write(_ data: Data, key: String) throws {}
    func delete(key: String) throws {}
    func keys() throws -> [String] { [] }
}
