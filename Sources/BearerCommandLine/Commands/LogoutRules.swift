import Bearer
import BearerCommandLineCore
@_spi(CommandLine) import BearerCore

/// What `bearer logout` may do with a stored session it is asked to remove.
enum LogoutRules {
    /// What the profile's store held.
    enum Stored {
        /// No session.
        case absent
        /// A file that could not be read at all (corrupt), now removed without being revoked.
        case removedUnreadable
        /// A session to disconnect, which `disconnect()` reads again under the lock.
        case readable
    }

    /// Reads the session of the profile's account (its default, or the one `--account` names),
    /// and removes it if it is corrupt; answers what it found and the account's key. The removal happens under
    /// the store's lock after reading the file again, so a `login` saving at the same time is
    /// never the one removed, and it sets no space aside, so it works on a full disk. A
    /// readable session is left as it is: `disconnect()` takes the lock and reads it again.
    ///
    /// - Throws: The store's error for a file that may not be read (one others can read, a folder
    ///   others can write: `insecureStorage`), and `unreadableSession` for one a newer release
    ///   wrote, whose grant this release cannot revoke: such a file is neither read nor removed.
    static func take(_ profile: Profile) async throws -> (stored: Stored, key: String) {
        let store = profile.store
        let key = try profile.sessionKey()
        if let stored = try await read(key, in: store) { return (stored, key) }
        let stored = try await store.withExclusiveAccess(to: key) { access -> Stored in
            if let stored = try await read(key, in: store) { return stored }
            try await access.remove()
            return .removedUnreadable
        }
        return (stored, key)
    }

    /// What the store holds under `key`; `nil` for a corrupt file.
    private static func read(_ key: String, in store: FileSessionStore) async throws -> Stored? {
        do {
            return try await store.load(key: key) == nil ? Stored.absent : Stored.readable
        } catch let error as BearerError where error.kind == .unreadableSession {
            if let version = try store.storedFormatVersion(key: key), version > AuthState.currentVersion {
                throw error
            }
            return nil
        }
    }
}
