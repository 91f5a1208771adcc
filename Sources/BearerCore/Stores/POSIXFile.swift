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
        let bytes = Array(path.utf8)
        let slash = UInt8(ascii: "/")
        var end = bytes.count
        while end > 1, bytes[end - 1] == slash { end -= 1 }
        guard end > 0, !(end == 1 && bytes[0] == slash), let last = bytes[..<end].lastIndex(of: slash) else {
            return nil
        }
        return last == 0 ? "/" : String(decoding: bytes[..<last], as: UTF8.self)
    }

    /// Reads a file that must be private to its owner, the current user, in a folder
    /// ``checkTrustedFolder(_:)`` accepts; `nil` when it does not exist.
    ///
    /// The file is opened without following a link and without blocking, so a FIFO planted as
    /// the session file cannot hang the reader; the folder's trust and the file's type, owner and
    /// mode are checked before a byte is read, so anything but a private regular file is refused.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - kind: What the file holds, for messages: `"session"` or `"key"`.
    static func readSecret(at path: String, holding kind: String = "session") throws -> Data? {
        // O_NOFOLLOW refuses a symbolic link (ELOOP) and O_NONBLOCK keeps a FIFO from blocking the
        // open; fstat below refuses anything but a regular file before a byte is read.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        let remedy = kind == "session" ? " and sign in again" : ""
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP {
                throw BearerError.insecureStorage("\(path) is a symbolic link; \(kind) files must be regular files.")
            }
            if errno == ENXIO || errno == EOPNOTSUPP {  // a socket, or a device without its driver
                throw BearerError.insecureStorage("\(path) is not a regular file; move it away\(remedy).")
            }
            throw failure("open", path)
        }
        defer { close(descriptor) }
        let user = geteuid()
        try checkTrustedFolder(parent(of: path) ?? ".", user: user)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("inspect", path) }
        guard (status.st_mode & mode_t(S_IFMT)) == mode_t(S_IFREG) else {
            throw BearerError.insecureStorage("\(path) is not a regular file; move it away\(remedy).")
        }
        try checkOwner(status, of: path, what: "The \(kind) file", user: user)
        guard status.st_mode & 0o077 == 0 else {
            throw BearerError.insecureStorage(
                "\(path) can be read or written by other users (mode \(String(status.st_mode & 0o777, radix: 8))). "
                    + "Run: chmod 600 '\(path)' — and consider the \(kind) compromised if others could read it."
            )
        }
        // Read straight into the result, sized one byte past the file as it was (a session is a
        // few kilobytes), so one read usually takes it all and a second finds its end.
        var data = Data(count: min(max(Int(clamping: status.st_size) + 1, 512), 65_536))
        var filled = 0
        while true {
            if filled == data.count { data.count += min(data.count, 1 << 20) }
            let count = data.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read", path)
            }
            if count == 0 { break }
            filled += count
        }
        data.count = filled
        return data
    }

    /// Writes `data` to a new temporary file of mode 0600, flushes it, renames it to `path` and
    /// flushes the folder. With `reservation`, the data goes into that file, whose space is
    /// already allocated, so the write cannot fail for lack of space when the data fits.
    ///
    /// - Parameter keepingLock: Whether to take an exclusive `flock` on the new file before it is
    ///   renamed into place and return its open descriptor, so that a lock holder keeps the file
    ///   locked from the moment the path names it (``SessionFileLock``).
    /// - Returns: With `keepingLock`, the new file's locked descriptor (`nil` when the lock could
    ///   not be taken); else `nil`.
    @discardableResult
    static func writeAtomically(
        _ data: Data,
        to path: String,
        directory: String,
        into reservation: ReservedFile? = nil,
        keepingLock: Bool = false
    ) throws -> Int32? {
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
        var kept: Int32?
        defer {
            if !written { unlink(temporary) }
            if kept == nil { close(descriptor) }
        }
        do {
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
        // A fresh file nobody else has opened: the lock is free, unless the system has no locks.
        let locked = keepingLock && flock(descriptor, LOCK_EX | LOCK_NB) == 0
        guard rename(temporary, path) == 0 else { throw failure("replace", path) }
        written = true
        try syncDirectory(directory)
        if locked { kept = descriptor }
        return kept
    }

    /// A new temporary file name beside `path`, after removing ones that killed writers left.
    static func temporaryPath(for path: String, in directory: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let suffix = String(UInt64.random(in: .min ... .max, using: &generator), radix: 16)
        let prefix = "." + (path.split(separator: "/").last.map(String.init) ?? "session") + "."
        removeStaleTemporaryFiles(in: directory, prefix: prefix)
        return directory + "/" + prefix + suffix + ".tmp"
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

    /// Checks that the folder at `path` belongs to the current user and that no one else can
    /// write to it, as ssh's StrictModes does: another user could otherwise plant, replace or
    /// lock the session files in it.
    ///
    /// - Returns: The folder's status.
    /// - Throws: ``BearerError/Kind/insecureStorage`` naming the command that fixes it.
    @discardableResult
    static func checkTrustedFolder(_ path: String, user: uid_t = geteuid()) throws -> stat {
        var status = stat()
        guard stat(path, &status) == 0 else { throw failure("inspect", path) }
        guard status.st_uid == user else {
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

    /// Checks that a file belongs to the current user, `user`.
    static func checkOwner(_ status: stat, of path: String, what: String, user: uid_t = geteuid()) throws {
        guard status.st_uid == user else {
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

    static func failure(_ action: String, _ path: String) -> BearerError {
        let code = errno
        let reason = String(cString: strerror(code))
        return BearerError.storageFailure(
            "Cannot \(action) \(path): \(reason).",
            underlyingError: POSIXErrorCode(rawValue: code).map { POSIXError($0) }
        )
    }
}
