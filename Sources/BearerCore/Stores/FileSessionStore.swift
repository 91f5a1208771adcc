#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A ``SessionStore`` that keeps each session in its own file, safe to share between processes.
///
/// - The folder is created with mode 0700 and each file with 0600.
/// - A save writes a temporary file (created with `O_EXCL`), flushes it, renames it over the old
///   file and flushes the folder, so a crash leaves either the old or the new session, never a
///   torn one. (Foundation's atomic write would reset the mode to 0644.)
/// - ``withExclusiveAccess(to:_:)`` holds an advisory lock (`flock`) on a lock file per key, so two
///   processes never refresh the same session at once. A lock file removed or replaced while
///   it was being taken (a cleaner, a sync tool) is detected by its device and inode, and the
///   lock taken again on the file the path names.
/// - The holder also locks the session file itself, and each save locks its new file before
///   renaming it into place. A lock file removed while a refresh is out therefore lets nobody
///   in: a process that arrives meanwhile takes a new lock file, then waits on the session file
///   until the refresh is saved, and reads the saved session.
/// - Before a refresh is sent under the lock, the disk space of the next save is allocated
///   (``reservedSpace`` bytes, or twice the current file if larger), and the save writes into it.
///   A refresh that rotates the refresh token therefore cannot be lost to a full disk after it
///   was sent: when the space cannot be allocated, nothing is sent and the error says to free
///   space. (On copy-on-write file systems such as Btrfs, ZFS or APFS, an
///   allocation is no promise, so this is best effort there.)
/// - A session file that group or others can read is refused with an error that says how to fix
///   it; a corrupt file is reported by name and left in place.
public struct FileSessionStore: SessionStore {
    /// The folder holding the session files.
    public var directory: URL {
        givenDirectory ?? URL(fileURLWithPath: directoryPath, isDirectory: true)
    }
    /// How long ``withExclusiveAccess(to:_:)`` waits for another process to release a lock.
    public var lockTimeout: Duration

    /// The disk space allocated for the next save while the lock is held (64 KiB; a session file
    /// is a few kilobytes).
    public static let reservedSpace = 65_536

    /// The folder's path, made once: every call names a file in it.
    private let directoryPath: String
    /// The folder as the app gave it; `nil` when it gave a path, whose URL is made only when asked
    /// for (`bearer token` never does).
    private let givenDirectory: URL?
    private let locks = AsyncKeyedLock()
    /// The logout tokens this store accepted (see ``BackChannelLogoutStore``).
    let seenLogoutTokens = SeenLogoutTokens()

    /// Creates a store in `directory`, which is created (mode 0700) on the first save.
    ///
    /// - Parameters:
    ///   - directory: The folder for session files.
    ///   - lockTimeout: How long to wait for a lock held by another process (60 s by default).
    public init(directory: URL, lockTimeout: Duration = .seconds(60)) {
        self.givenDirectory = directory
        self.directoryPath = directory.path
        self.lockTimeout = lockTimeout
    }

    /// Creates a store in the folder at `path`, without asking a URL for its path when `path` is
    /// already what that would give: absolute, with no `.` or `..` component, no empty one and no
    /// trailing slash.
    @_spi(CommandLine) public init(directoryPath path: String, lockTimeout: Duration = .seconds(60)) {
        if Self.isPlainAbsolute(path) {
            self.givenDirectory = nil
            self.directoryPath = path
        } else {
            let directory = URL(fileURLWithPath: path, isDirectory: true)
            self.givenDirectory = directory
            self.directoryPath = directory.path
        }
        self.lockTimeout = lockTimeout
    }

    private static func isPlainAbsolute(_ path: String) -> Bool {
        guard path.utf8.first == UInt8(ascii: "/"), path.utf8.count > 1 else { return false }
        // Each component after a slash: its length, and whether it is only dots.
        var length = 0
        var onlyDots = true
        for byte in path.utf8.dropFirst() {
            if byte == UInt8(ascii: "/") {
                guard length > 0, !(onlyDots && length <= 2) else { return false }
                (length, onlyDots) = (0, true)
            } else {
                length += 1
                onlyDots = onlyDots && byte == UInt8(ascii: ".")
            }
        }
        return length > 0 && !(onlyDots && length <= 2)
    }

    /// The file that holds the session saved under `key`.
    ///
    /// - Parameter key: A key of letters, digits and `. _ - @ +`, not starting with a dot.
    /// - Returns: The file's URL.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` for any other key.
    public func fileURL(for key: String) throws -> URL {
        URL(fileURLWithPath: try filePath(for: key), isDirectory: false)
    }

    /// The path of ``fileURL(for:)``, without making a URL.
    func filePath(for key: String) throws -> String {
        try Self.checkKey(key)
        return pathInFolder(key + ".json")
    }

    /// The path of the file `name` in the folder.
    private func pathInFolder(_ name: String) -> String {
        Self.path(name, inFolder: directoryPath)
    }

    /// `name` in the folder at `folder`, joined with one slash, without making a URL.
    @_spi(CommandLine) public static func path(_ name: String, inFolder folder: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// Reads the session saved under `key`.
    ///
    /// - Throws: ``BearerError/Kind/insecureStorage`` when the file is readable by others,
    ///   ``BearerError/Kind/unreadableSession`` naming the file when it cannot be decoded, or
    ///   ``BearerError/Kind/storageFailure``.
    public func load(key: String) async throws -> AuthState? {
        try loadWithoutSuspending(key: key)
    }

    /// Reads the session saved under `key`, as ``load(key:)`` does, without suspending: for a
    /// process that reads one session and exits, this spares starting the concurrency runtime's
    /// threads.
    ///
    /// - Throws: As ``load(key:)``.
    @_spi(CommandLine) public func loadWithoutSuspending(key: String) throws -> AuthState? {
        let path = try filePath(for: key)
        return try Self.decode(try POSIXFile.readSecret(at: path), at: path)
    }

    /// The session in `bytes`, read from the file at `path`; `nil` when there is no file.
    static func decode(_ bytes: Data?, at path: String) throws -> AuthState? {
        guard let bytes else { return nil }
        do {
            return try AuthState(encoded: bytes)
        } catch let error as BearerError {
            throw error.rewording { "The session file \(path) cannot be used: \($0) The file was left as it is." }
        }
    }

    /// The envelope version of the file of `key`, read with the checks of ``load(key:)``: `nil`
    /// when there is no file or its text says no version.
    ///
    /// - Throws: As ``load(key:)``, for a file that may not be read.
    @_spi(CommandLine) public func storedFormatVersion(key: String) throws -> Int? {
        try POSIXFile.readSecret(at: try filePath(for: key)).flatMap(AuthState.formatVersion(ofEncoded:))
    }

    /// The keys of the session files in ``directory``, sorted; empty when the folder does not exist.
    ///
    /// - Throws: ``BearerError/Kind/storageFailure`` when the folder cannot be listed.
    public func keys() async throws -> [String] {
        try keysWithoutSuspending()
    }

    /// The keys of ``keys()``, listed without suspending.
    ///
    /// - Throws: As ``keys()``.
    @_spi(CommandLine) public func keysWithoutSuspending() throws -> [String] {
        guard let names = try POSIXFile.names(inFolder: directoryPath) else { return [] }
        return names.compactMap { name -> String? in
            guard name.hasSuffix(".json") else { return nil }
            let key = String(name.dropLast(".json".count))
            return (try? Self.checkKey(key)) == nil ? nil : key
        }.sorted()
    }

    /// Runs `body` while holding the lock of `key`, across tasks and processes. A body that may
    /// save after a request (a refresh) sets the space of that save aside first
    /// (``ExclusiveSessionAccess/prepareToSave()``); one that only removes (signing out,
    /// disconnecting) needs none, and works on a full disk.
    ///
    /// - Throws: What `body` throws; ``BearerError/Kind/storageFailure`` when the lock cannot be
    ///   taken (then `body` does not run).
    public func withExclusiveAccess<Result: Sendable>(
        to key: String,
        _ body: @Sendable (_ access: Access) async throws -> Result
    ) async throws -> Result {
        let path = try filePath(for: key)
        let lockPath = pathInFolder("." + key + ".lock")
        let (timeout, folder) = (lockTimeout, directoryPath)
        return try await locks.withLock(key) {
            let lock = try await POSIXFile.lockExclusively(at: lockPath, in: folder, timeout: timeout)
            let sessionLock: SessionFileLock
            do {
                sessionLock = try await SessionFileLock.take(at: path, timeout: timeout)
            } catch {
                lock.unlock()
                throw error
            }
            let access = Access(path: path, folder: folder, lock: lock, sessionLock: sessionLock)
            defer {
                access.releaseReservedSpace()
                sessionLock.release()
                lock.unlock()
            }
            return try await body(access)
        }
    }

    /// Refuses a key that cannot name a session file: anything but letters, digits and
    /// `. _ - @ +`, or one starting with a dot.
    ///
    /// - Throws: ``BearerError/Kind/invalidConfiguration``.
    @_spi(CommandLine) public static func checkKey(_ key: String) throws {
        let allowed = key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"),
                UInt8(ascii: "@"), UInt8(ascii: "+"):
                return true
            default:
                return false
            }
        }
        guard allowed, !key.isEmpty, key.utf8.count <= 200, !key.hasPrefix(".") else {
            throw BearerError.invalidConfiguration(
                "A session key may only contain letters, digits and . _ - @ + (not starting with a dot); "
                    + "\"\(key)\" does not."
            )
        }
    }
}
