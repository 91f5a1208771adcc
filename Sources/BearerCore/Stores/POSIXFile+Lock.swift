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
    static func lockExclusively(at path: String, timeout: Duration) async throws -> FileLock {
        let timeout = min(max(timeout, .zero), .seconds(86_400))
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
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var pause = Duration.milliseconds(1)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                close(descriptor)
                throw failure("lock", path)
            }
            guard clock.now < deadline else {
                close(descriptor)
                throw BearerError.storageFailure(
                    "Another process has held the lock \(path) for too long; try again, or stop that process."
                )
            }
            do {
                try await Task.sleep(for: pause)
            } catch {
                close(descriptor)
                throw error
            }
            pause = min(pause * 2, .milliseconds(20))
        }
        return FileLock(descriptor: descriptor)
    }
}

/// A held `flock`; ``unlock()`` releases it and closes the file.
struct FileLock: Sendable {
    let descriptor: Int32

    func unlock() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
