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
    /// Creates `path` and any missing parents with mode 0700; makes an existing folder of ours
    /// private.
    static func createDirectory(at path: String) throws {
        var status = stat()
        if stat(path, &status) == 0 {
            guard (status.st_mode & mode_t(S_IFMT)) == mode_t(S_IFDIR) else {
                throw BearerError(.storageFailure, "\(path) exists and is not a folder; move it away.")
            }
            if status.st_uid == geteuid(), status.st_mode & 0o077 != 0 {
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
                throw BearerError(.storageFailure, "\(path) exists and is not a folder; move it away.")
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

    /// Reads a file that must be private to its owner; `nil` when it does not exist.
    static func readSecret(at path: String) throws -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP {
                throw BearerError(.insecureStorage, "\(path) is a symbolic link; session files must be regular files.")
            }
            throw failure("open", path)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("inspect", path) }
        guard (status.st_mode & mode_t(S_IFMT)) == mode_t(S_IFREG) else {
            throw BearerError(.insecureStorage, "\(path) is not a regular file; move it away and sign in again.")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw BearerError(
                .insecureStorage,
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
    /// flushes the folder.
    static func writeAtomically(_ data: Data, to path: String, directory: String) throws {
        var generator = SystemRandomNumberGenerator()
        let suffix = String(UInt64.random(in: .min ... .max, using: &generator), radix: 16)
        let prefix = "." + (path.split(separator: "/").last.map(String.init) ?? "session") + "."
        removeStaleTemporaryFiles(in: directory, prefix: prefix)
        let temporary = directory + "/" + prefix + suffix + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure("create", temporary) }
        var written = false
        defer {
            if !written { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            guard fchmod(descriptor, 0o600) == 0 else { throw failure("set the mode of", temporary) }
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
            guard fsync(descriptor) == 0 else { throw failure("flush", temporary) }
        }
        guard rename(temporary, path) == 0 else { throw failure("replace", path) }
        written = true
        try syncDirectory(directory)
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
                throw BearerError(
                    .storageFailure,
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

    private static func syncDirectory(_ directory: String) throws {
        let descriptor = open(directory, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open", directory) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure("flush", directory) }
    }

    private static func failure(_ action: String, _ path: String) -> BearerError {
        let code = errno
        let reason = String(cString: strerror(code))
        return BearerError(
            .storageFailure,
            "Cannot \(action) \(path): \(reason).",
            underlyingError: POSIXErrorCode(rawValue: code).map { POSIXError($0) }
        )
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
