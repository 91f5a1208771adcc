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

// Reserving disk space for the next save, so a full disk cannot stop a refreshed session from
// being saved.
extension POSIXFile {
    /// Creates the temporary file that the next save of `path` will write, with `minimum` bytes
    /// (or twice the current file, if larger) allocated on disk, so that save cannot fail for lack
    /// of space.
    ///
    /// - Throws: ``BearerError/Kind/storageFailure`` when the space cannot be allocated (the
    ///   disk or the quota is full); nothing is left behind.
    ///
    /// - Parameters:
    ///   - minimum: The fewest bytes to allocate.
    ///   - path: The session file the space is for.
    ///   - directory: Its folder.
    ///   - space: Where the reserved file is kept until the save takes it; the reservation is made
    ///     once, and kept when `space` already holds one.
    static func reserve(atLeast minimum: Int, for path: String, directory: String, into space: ReservedSpace) throws {
        guard !space.holdsFile else { return }
        space.keep(try reserve(max(minimum, 2 * Self.size(at: path)), for: path, directory: directory))
    }

    private static func reserve(_ size: Int, for path: String, directory: String) throws -> ReservedFile {
        let temporary = temporaryPath(for: path, in: directory)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure("create", temporary) }
        let status = allocate(descriptor, size)
        guard status == 0 else {
            close(descriptor)
            unlink(temporary)
            let reason = String(cString: strerror(status))
            throw BearerError.storageFailure(
                "Cannot reserve \(size) bytes in \(directory) for the session (\(reason)); nothing was sent to the "
                    + "server. Free some space, then try again.",
                underlyingError: POSIXErrorCode(rawValue: status).map { POSIXError($0) }
            )
        }
        return ReservedFile(path: temporary, descriptor: descriptor)
    }

    /// Allocates `size` bytes to the file: `posix_fallocate` where it exists, else by writing
    /// zeros. Returns 0 or an `errno` value.
    static func allocate(_ descriptor: Int32, _ size: Int) -> Int32 {
        #if canImport(Glibc) || canImport(Musl)
            let status = posix_fallocate(descriptor, 0, off_t(size))
            if status != EOPNOTSUPP && status != EINVAL { return status }
        #endif
        let zeros = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let count = zeros.withUnsafeBytes { write(descriptor, $0.baseAddress?.advanced(by: offset), size - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += count
        }
        return fsync(descriptor) == 0 ? 0 : errno
    }

    /// Removes temporary files of `prefix` left by a writer that was killed more than a minute ago,
    /// so no copy of a credential lingers; a writer still at work is left alone.
    static func removeStaleTemporaryFiles(in directory: String, prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let path = directory + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0 else { continue }
            #if canImport(Darwin)
                let modified = status.st_mtimespec.tv_sec
            #else
                let modified = status.st_mtim.tv_sec
            #endif
            if time(nil) - modified > 60 { unlink(path) }
        }
    }
}

/// Where a lock's holder keeps its reserved file until a save takes it or the lock ends.
final class ReservedSpace: @unchecked Sendable {
    // Unchecked: `file` is touched only while holding `lock`.
    private let lock = Lock()
    private var file: ReservedFile?

    /// Whether a reserved file is kept.
    var holdsFile: Bool { lock.withLock { file != nil } }

    /// Keeps `reserved`, releasing any file kept before.
    func keep(_ reserved: ReservedFile) {
        lock.withLock {
            file?.release()
            file = reserved
        }
    }

    /// Takes the kept file, for a save to write into.
    func take() -> ReservedFile? {
        lock.withLock {
            defer { file = nil }
            return file
        }
    }

    /// Removes the kept file, when no save used it.
    func release() {
        take()?.release()
    }
}

/// A temporary file whose space is allocated, waiting for the next save of a session.
struct ReservedFile: Sendable {
    let path: String
    let descriptor: Int32

    /// Removes the file when no save used it.
    func release() {
        close(descriptor)
        unlink(path)
    }
}
