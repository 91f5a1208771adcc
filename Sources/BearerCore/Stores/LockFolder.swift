#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A folder of lock files, one per session, that every process able to reach the folder sees: an
/// app and its widget or extensions when it is in their app group's shared container.
///
/// ``withLock(named:_:)`` holds an exclusive `flock` on the named file (the lock ``FileSessionStore``
/// takes), and inside one process also a lock per file, so tasks wait without polling. The kernel
/// releases the lock of a process that dies, so a crash never leaves a session locked.
@_spi(Bridge) @_spi(Testing) public struct LockFolder: Sendable, Hashable {
    /// The folder holding the lock files; created with mode 0700 when first used.
    let directory: URL
    /// How long ``withLock(named:_:)`` waits for another process to release a lock.
    var timeout: Duration

    /// The name of the lock folder inside an app group's shared container.
    static let containerSubpath = "Library/Application Support/Bearer/Locks"

    private static let tasks = AsyncKeyedLock()

    /// A lock folder at `directory`.
    ///
    /// - Parameters:
    ///   - directory: The folder of the lock files.
    ///   - timeout: How long to wait for a lock held by another process (60 s by default).
    @_spi(Testing) public init(directory: URL, timeout: Duration = .seconds(60)) {
        self.directory = directory
        self.timeout = timeout
    }

    /// The lock folder in the shared container of `appGroup`.
    ///
    /// - Parameters:
    ///   - container: What `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`
    ///     returned for `appGroup`; `nil` when the app is not a member of the group.
    ///   - appGroup: The app group identifier, for the error message.
    ///   - timeout: How long to wait for a lock held by another process.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` naming the entitlement when `container`
    ///   is `nil`.
    @_spi(Bridge) public static func inContainer(
        _ container: URL?,
        appGroup: String,
        timeout: Duration = .seconds(60)
    ) throws -> LockFolder {
        guard let container else {
            throw BearerError.invalidConfiguration(
                "There is no shared container for the app group \(appGroup): add it to the "
                    + "com.apple.security.application-groups entitlement of the app and of every extension "
                    + "that shares its sessions (the App Groups capability)."
            )
        }
        return LockFolder(
            directory: container.appendingPathComponent(containerSubpath, isDirectory: true),
            timeout: timeout
        )
    }

    /// Runs `body` while holding the lock file `name` of this folder, across tasks and processes.
    ///
    /// A task waits for the others of its process first, without taking time from `activity`;
    /// then the file is locked, `body` runs and the file is unlocked, all inside `activity` when
    /// there is one, so that no process holds the file while the system may suspend it.
    ///
    /// - Parameters:
    ///   - name: The lock file's name: letters, digits, `.`, `_` and `-`, not starting with a dot.
    ///   - activity: The time the system grants for holding the file, where it suspends processes.
    ///   - body: The work to do under the lock.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws; ``BearerError/Kind/storageFailure`` when the folder cannot be
    ///   created or the lock cannot be taken within ``timeout`` (then `body` does not run); what
    ///   ``ExpiringActivity/run(_:)`` throws.
    func withLock<Result: Sendable>(
        named name: String,
        inside activity: ExpiringActivity? = nil,
        _ body: @Sendable (FileLock) async throws -> Result
    ) async throws -> Result {
        let path = directory.appendingPathComponent(name, isDirectory: false).path
        let (folder, timeout) = (directory.path, self.timeout)
        return try await Self.tasks.withLock(path) {
            guard let activity else { return try await Self.holdingFile(path, in: folder, timeout: timeout, body) }
            return try await activity.run { try await Self.holdingFile(path, in: folder, timeout: timeout, body) }
        }
    }

    /// Locks the file at `path` (creating `folder` first), runs `body` and unlocks it.
    private static func holdingFile<Result: Sendable>(
        _ path: String,
        in folder: String,
        timeout: Duration,
        _ body: @Sendable (FileLock) async throws -> Result
    ) async throws -> Result {
        let lock = try await POSIXFile.lockExclusively(at: path, in: folder, timeout: timeout)
        defer { lock.unlock() }
        return try await body(lock)
    }
}
