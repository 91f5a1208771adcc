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

/// The file-system calls ``FileSessionStore`` needs, with modes, `O_EXCL`, `fsync` and `flock`,
/// which Foundation does not offer.
enum POSIXFile {
    /// Creates `path` and any missing parents with mode 0700; an existing folder must be one
    /// ``checkTrustedFolder(_:)`` accepts, and is made private (0700) if others can read it.
    static func createDirectory(at path: String) throws {
        var status = stat()
        if stat(path, &status) == 0 {
            guard (status.st_mode & mode_t(S_IFMT)) == mode_t(S_IFDIR) else {
                throw BearerError.storageFailure("\(path) exists and is not a folder; move it away.")
            }
            let status = try checkTrustedFolder(path)
            if status.st_mode & 0o077 != 0 {
                guard chmod(path, 0o700) == 0 else { throw failure("make private (chmod 700)", path) }
            }
            return
        }
        try makeDirectory(at: path)
        guard chmod(path, 0o700) == 0 else { throw failure("set the mode of", path) }
    }

    /// `mkdir -p` with mode 0700 for every folder it creates; existing folders are left as they are.
    private static func makeDirectory(at path: String) throws {
        var status = stat()
        if stat(path, &status) == 0 {
            guard (status.st_mode & mode_t(S_IFMT)) == mode_t(S_IFDIR) else {
                throw BearerError.storageFailure("\(path) exists and is not a folder; move it away.")
            }
            return
        }
        if let parent = parent(of: path) { try makeDirectory(at: parent) }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw failure("create the folder", path) }
    }

    /// The folder that contains `path`, or `nil` for a root or a single relative component.
    private static func parent(of path: String) -> String? {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/"), trimmed != "/" else { return nil }
        let parent = trimmed[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }

    /// Reads a file that must be private to its owner, the current user, in a folder
    /// ``checkTrustedFolder(_:)`` accepts; `nil` when it does not exist.
    ///
    /// Nothing is opened before the folder and the file's type are checked, and the file is
    /// opened without blocking, so a FIFO or a device planted as the session file is refused
    /// instead of hanging the reader.
    static func readSecret(at path: String) throws -> Data? {
        var found = stat()
        if lstat(path, &found) != 0 {
            if errno == ENOENT { return nil }
            throw failure("inspect", path)
        }
        try checkTrustedFolder(parent(of: path) ?? ".")
        switch found.st_mode & mode_t(S_IFMT) {
        case mode_t(S_IFREG): break
        case mode_t(S_IFLNK):
            throw BearerError.insecureStorage("\(path) is a symbolic link; session files must be regular files.")
        default:
            throw BearerError.insecureStorage("\(path) is not a regular file; move it away and sign in again.")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP {
                throw BearerError.insecureStorage("\(path) is a symbolic link; session files must be regular files.")
            }
            throw failure("open", path)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("inspect", path) }
        guard (status.st_mode & mode_t(S_IFMT)) == mode_t(S_IFREG) else {
            throw BearerError.insecureStorage("\(path) is not a regular file; move it away and sign in again.")
        }
        try checkOwner(status, of: path, what: "The session file")
        guard status.st_mode & 0o077 == 0 else {
            throw BearerError.insecureStorage(
                "\(path) can be read or written by other users (mode \(String(status.st_mode & 0o777, radix: 8))). "
                    + "Run: chmod 600 '\(path)' — and consider the session compromised if others could read it."
            )
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read", path)
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return data
    }

    /// Writes `data` to a new temporary file of mode 0600, flushes it, renames it to `path` and
    /// flushes the folder. With `reservation`, the data goes into that file, whose space is
    /// already allocated, so the write cannot fail for lack of space when the data fits.
    static func writeAtomically(
        _ data: Data,
        to path: String,
        directory: String,
        into reservation: ReservedFile? = nil
    ) throws {
        let temporary: String
        let descriptor: Int32
        if let reservation {
            (temporary, descriptor) = (reservation.path, reservation.descriptor)
        } else {
            temporary = temporaryPath(for: path, in: directory)
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else { throw failure("create", temporary) }
        }
        var written = false
        defer {
            if !written { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            guard fchmod(descriptor, 0o600) == 0 else { throw failure("set the mode of", temporary) }
            guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw failure("rewind", temporary) }
            try data.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let count = write(descriptor, bytes.baseAddress?.advanced(by: offset), bytes.count - offset)
                    if count < 0 {
                        if errno == EINTR { continue }
                        throw failure("write", temporary)
                    }
                    offset += count
                }
            }
            // A reserved file is longer than the data: cut it to size (which never needs space).
            guard ftruncate(descriptor, off_t(data.count)) == 0 else { throw failure("truncate", temporary) }
            guard fsync(descriptor) == 0 else { throw failure("flush", temporary) }
        }
        guard rename(temporary, path) == 0 else { throw failure("replace", path) }
        written = true
        try syncDirectory(directory)
    }

    /// A new temporary file name beside `path`, after removing ones that killed writers left.
    private static func temporaryPath(for path: String, in directory: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let suffix = String(UInt64.random(in: .min ... .max, using: &generator), radix: 16)
        let prefix = "." + (path.split(separator: "/").last.map(String.init) ?? "session") + "."
        removeStaleTemporaryFiles(in: directory, prefix: prefix)
        return directory + "/" + prefix + suffix + ".tmp"
    }

    /// Creates the temporary file that the next save of `path` will write, with `size` bytes
    /// allocated on disk, so that save cannot fail for lack of space.
    ///
    /// - Throws: ``BearerError/Kind/storageFailure`` when the space cannot be allocated (the
    ///   disk or the quota is full); nothing is left behind.
    static func reserve(_ size: Int, for path: String, directory: String) throws -> ReservedFile {
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
    private static func allocate(_ descriptor: Int32, _ size: Int) -> Int32 {
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
    private static func removeStaleTemporaryFiles(in directory: String, prefix: String) {
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

    /// The size of the file at `path`, or 0 when it cannot be read.
    static func size(at path: String) -> Int {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0 }
        return Int(status.st_size)
    }

    /// Removes `path`; a missing file is not an error.
    static func remove(at path: String, directory: String) throws {
        if unlink(path) != 0 && errno != ENOENT { throw failure("remove", path) }
        try? syncDirectory(directory)
    }

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

    /// Checks that the folder at `path` belongs to the current user and that no one else can
    /// write to it, as ssh's StrictModes does: another user could otherwise plant, replace or
    /// lock the session files in it.
    ///
    /// - Returns: The folder's status.
    /// - Throws: ``BearerError/Kind/insecureStorage`` naming the command that fixes it.
    @discardableResult
    static func checkTrustedFolder(_ path: String) throws -> stat {
        var status = stat()
        guard stat(path, &status) == 0 else { throw failure("inspect", path) }
        guard status.st_uid == geteuid() else {
            throw BearerError.insecureStorage(
                "The folder \(path) belongs to another user (uid \(status.st_uid)), who could read or replace the "
                    + "sessions in it; nothing was read or written. Move it away (mv '\(path)' '\(path).untrusted') "
                    + "and run the command again, or choose a folder of your own with BEARER_CONFIG_DIR."
            )
        }
        guard status.st_mode & 0o022 == 0 else {
            throw BearerError.insecureStorage(
                "The folder \(path) can be written by other users (mode \(String(status.st_mode & 0o777, radix: 8))), "
                    + "who could replace the sessions in it; nothing was read or written. Run: chmod 700 '\(path)'"
            )
        }
        return status
    }

    /// Checks that a file belongs to the current user.
    private static func checkOwner(_ status: stat, of path: String, what: String) throws {
        guard status.st_uid == geteuid() else {
            throw BearerError.insecureStorage(
                "\(what) \(path) belongs to another user (uid \(status.st_uid)); nothing was read or written. "
                    + "Remove it (rm '\(path)') and run the command again."
            )
        }
    }

    private static func syncDirectory(_ directory: String) throws {
        let descriptor = open(directory, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open", directory) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure("flush", directory) }
    }

    private static func failure(_ action: String, _ path: String) -> BearerError {
        let code = errno
        let reason = String(cString: strerror(code))
        return BearerError.storageFailure(
            "Cannot \(action) \(path): \(reason).",
            underlyingError: POSIXErrorCode(rawValue: code).map { POSIXError($0) }
        )
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

/// A held `flock`; ``unlock()`` releases it and closes the file.
struct FileLock: Sendable {
    let descriptor: Int32

    func unlock() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
