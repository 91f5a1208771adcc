#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Writes files that hold credentials: only their owner can read them, and a crash never leaves a
/// half-written one (the same writing ``FileSessionStore`` uses).
@_spi(Internals) public enum PrivateFile {
    /// Writes `data` to `url` atomically with mode 0600, creating its folder with mode 0700.
    ///
    /// - Parameters:
    ///   - data: The contents.
    ///   - url: The file.
    /// - Throws: ``BearerError/Kind/storageFailure`` when it cannot be written; a previous file
    ///   at `url` is then unchanged.
    @_spi(Internals) public static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent().path
        try POSIXFile.createDirectory(at: directory)
        try POSIXFile.writeAtomically(data, to: url.path, directory: directory)
    }

    /// Writes `data` to `url` atomically with mode 0600, in a folder that must exist and whose
    /// mode is left as it is (a file the user named, such as an export).
    ///
    /// - Parameters:
    ///   - data: The contents.
    ///   - url: The file.
    /// - Throws: ``BearerError/Kind/storageFailure`` when it cannot be written; a previous file
    ///   at `url` is then unchanged.
    @_spi(Internals) public static func write(_ data: Data, toFileInExistingFolder url: URL) throws {
        let directory = url.deletingLastPathComponent().path
        try POSIXFile.writeAtomically(data, to: url.path, directory: directory.isEmpty ? "." : directory)
    }

    /// Reads a file that only its owner, the current user, may read or write, such as a client's
    /// key, without following a link; `nil` when it does not exist.
    ///
    /// - Parameters:
    ///   - url: The file.
    ///   - kind: What it holds, for messages (`"key"`).
    /// - Returns: Its contents.
    /// - Throws: ``BearerError/Kind/insecureStorage`` for a link, a file that is not regular, or one
    ///   that others can read or write or own, naming the command that fixes it;
    ///   ``BearerError/Kind/storageFailure`` when it cannot be read.
    @_spi(Internals) public static func read(_ url: URL, holding kind: String) throws -> Data? {
        try POSIXFile.readSecret(at: url.path, holding: kind)
    }
}
