#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `flock` a ``FileSessionStore`` lock holder keeps on the session file itself, beside the one
/// on the key's lock file (which releases before this one older releases honour).
///
/// A lock file can vanish under its holder: removed by a cleaner or a sync tool while a refresh is
/// out, after which another process creates a new one, locks it and would send the same refresh
/// token. The session file cannot be removed without removing the session, so a process that
/// arrives meanwhile waits here, on the file the path names, until the holder is done. Each save
/// renames a new file into place, locked before the rename, and this lock moves to it.
final class SessionFileLock: @unchecked Sendable {
    // Unchecked: `descriptor` is touched only while holding `lock`.
    private let lock = Lock()
    private let path: String
    /// The locked session file, or `nil` while there is none.
    private var descriptor: Int32?

    /// Takes the lock on the session file at `path`, if there is one, waiting up to `timeout`.
    ///
    /// - Throws: ``BearerError/Kind/storageFailure`` when another process holds it longer.
    static func take(at path: String, timeout: Duration) async throws -> SessionFileLock {
        let deadline = ContinuousClock.now.advanced(by: min(max(timeout, .zero), .seconds(86_400)))
        return SessionFileLock(path: path, descriptor: try await POSIXFile.lockSessionFile(at: path, until: deadline))
    }

    private init(path: String, descriptor: Int32?) {
        self.path = path
        self.descriptor = descriptor
    }

    /// Whether the lock is held on the file the path names now: then no process of this release
    /// can have written the file since it was taken.
    var holdsNamedFile: Bool {
        lock.withLock {
            guard let descriptor else { return false }
            return POSIXFile.path(path, namesFileOf: descriptor)
        }
    }

    /// Holds `replacement`, the new session file a save renamed into place (already locked), and
    /// lets go of the file it replaced; with `nil` (a save could not keep its lock), holds
    /// nothing. A removed session file stays held: a process waiting on it gets in only when this
    /// holder is done, then finds the path names no file, or another one.
    func move(to replacement: Int32?) {
        lock.withLock {
            if let descriptor { Self.unlock(descriptor) }
            descriptor = replacement
        }
    }

    /// Releases the lock.
    func release() {
        move(to: nil)
    }

    private static func unlock(_ descriptor: Int32) {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
