#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Locking a session's lock file across processes.
extension POSIXFile {
    /// Takes an exclusive `flock` on `path`, polling without blocking a thread, for up to `timeout`.
    ///
    /// A lock is only a lock while `path` still names the file it was taken on: a lock file
    /// removed (a cleaner, a sync tool) or replaced while another process held it would otherwise
    /// let two processes hold "the" lock at once, each on its own file. So once `flock` succeeds,
    /// the device and inode of `path` are compared with the locked file's, and the lock is taken
    /// again on the file `path` names when they differ.
    ///
    /// - Parameters:
    ///   - path: The lock file, created when missing.
    ///   - folder: Its folder, created (mode 0700) and checked first, when given.
    ///   - timeout: How long to wait for another holder.
    static func lockExclusively(at path: String, in folder: String? = nil, timeout: Duration) async throws -> FileLock {
        if let folder { try createDirectory(at: folder) }
        let timeout = min(max(timeout, .zero), .seconds(86_400))
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let (lock, locked) = try await lockOnce(at: path, until: deadline, clock: clock)
            if Self.path(path, namesFileWith: locked) { return lock }
            lock.unlock()
            guard clock.now < deadline else {
                throw BearerError.storageFailure(
                    "The lock file \(path) keeps being removed or replaced; stop whatever removes it, then try again.")
            }
        }
    }

    /// Opens `path` and takes an exclusive `flock` on it, returning the lock and the status of the
    /// file it holds.
    private static func lockOnce(
        at path: String,
        until deadline: ContinuousClock.Instant,
        clock: ContinuousClock
    ) async throws -> (FileLock, stat) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure("open the lock file", path) }
        // A lock file another user created lets that user hold the lock, or see when it is taken.
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw failure("inspect", path)
        }
        do {
            try checkOwner(status, of: path, what: "The lock file")
        } catch {
            close(descriptor)
            throw error
        }
        do {
            try await waitForLock(on: descriptor, path, until: deadline, clock: clock, holder: "the lock")
        } catch {
            close(descriptor)
            throw error
        }
        return (FileLock(descriptor: descriptor, path: path), status)
    }

    /// Takes an exclusive `flock` on the session file at `path` itself, on the file the path names
    /// once it is held, waiting until `deadline`; `nil` when there is no regular file there.
    ///
    /// The lock file can be removed while a refresh is out (a cleaner, a sync tool), and another
    /// process then takes a new one; the session file cannot be removed without removing the
    /// session. So a lock holder also locks the session file, and every save locks the new file
    /// before renaming it into place (``writeAtomically(_:to:directory:into:keepingLock:)``): a
    /// process that arrives while a refresh is out waits for it, whatever became of the lock file.
    ///
    /// - Returns: The locked descriptor, or `nil` when the path names no regular file (then
    ///   reading it reports why).
    static func lockSessionFile(at path: String, until deadline: ContinuousClock.Instant) async throws -> Int32? {
        let clock = ContinuousClock()
        while true {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard descriptor >= 0 else { return nil }
            var locked = stat()
            guard fstat(descriptor, &locked) == 0, locked.st_mode & S_IFMT == S_IFREG else {
                close(descriptor)
                return nil
            }
            do {
                try await waitForLock(on: descriptor, path, until: deadline, clock: clock, holder: "the session file")
            } catch {
                close(descriptor)
                throw error
            }
            if Self.path(path, namesFileWith: locked) { return descriptor }
            // A save renamed another file into place, or the session was removed, while this waited.
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }

    /// Whether `path` names the file whose status is `status` (device and inode), without
    /// following a symbolic link.
    static func path(_ path: String, namesFileWith status: stat) -> Bool {
        var named = stat()
        return lstat(path, &named) == 0 && named.st_dev == status.st_dev && named.st_ino == status.st_ino
    }

    /// Whether `path` names the file open as `descriptor` (device and inode).
    static func path(_ path: String, namesFileOf descriptor: Int32) -> Bool {
        var held = stat()
        return fstat(descriptor, &held) == 0 && Self.path(path, namesFileWith: held)
    }

    /// Polls an exclusive `flock` on `descriptor` without blocking a thread, until `deadline`.
    private static func waitForLock(
        on descriptor: Int32,
        _ path: String,
        until deadline: ContinuousClock.Instant,
        clock: ContinuousClock,
        holder: String
    ) async throws {
        var pause = Duration.milliseconds(1)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw failure("lock", path) }
            guard clock.now < deadline else {
                throw BearerError.storageFailure(
                    "Another process has held \(holder) \(path) for too long; try again, or stop that process.")
            }
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(20))
        }
    }
}

/// A held `flock`; ``unlock()`` releases it and closes the file.
struct FileLock: Sendable {
    let descriptor: Int32
    /// The lock file's path.
    let path: String

    /// Whether the path still names the locked file (device and inode): a lock file removed or
    /// replaced while held no longer keeps out a process that arrives since.
    var isStillNamedByPath: Bool {
        POSIXFile.path(path, namesFileOf: descriptor)
    }

    /// Throws unless the path still names the locked file, before a request whose answer only
    /// this holder may save is sent.
    ///
    /// - Throws: ``BearerError/Kind/storageFailure``.
    func checkStillNamedByPath() throws {
        guard isStillNamedByPath else {
            throw BearerError.storageFailure(
                "The lock file \(path) was removed or replaced while it was held (a cleaner or a sync tool?), so "
                    + "another process may hold the session's lock now; nothing was sent. Try again.")
        }
    }

    func unlock() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
