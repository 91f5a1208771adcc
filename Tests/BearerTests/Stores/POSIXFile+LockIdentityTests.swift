import Foundation
import Testing

@testable import BearerCore

/// A lock is a lock only while its path names the locked file: a waiter that was waiting on a
/// lock file removed meanwhile takes the lock again on the file the path names.
@Suite("Lock files removed while held")
struct LockIdentityTests {
    @Test("A waiter on a removed lock file does not get in beside the holder of its replacement")
    func waiterRetriesOnReplacement() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-lock-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("k.lock").path
        let first = try await POSIXFile.lockExclusively(at: path, timeout: .seconds(5))
        let taken = NSLock()
        nonisolated(unsafe) var hasTaken = false
        let waiter = Task {
            let lock = try await POSIXFile.lockExclusively(at: path, timeout: .seconds(20))
            taken.withLock { hasTaken = true }
            return lock
        }
        try await Task.sleep(for: .milliseconds(100))
        try FileManager.default.removeItem(atPath: path)
        let replacement = try await POSIXFile.lockExclusively(at: path, timeout: .seconds(5))
        #expect(replacement.isStillNamedByPath)
        #expect(!first.isStillNamedByPath, "the holder can tell its lock file is gone")
        #expect(throws: BearerError.self) { try first.checkStillNamedByPath() }
        first.unlock()
        try await Task.sleep(for: .milliseconds(500))
        #expect(!taken.withLock { hasTaken }, "the waiter waits for the replacement's holder")
        replacement.unlock()
        let lock = try await waiter.value
        #expect(lock.isStillNamedByPath)
        lock.unlock()
    }
}
