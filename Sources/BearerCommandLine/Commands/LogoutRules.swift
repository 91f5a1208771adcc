import Bearer
import BearerCommandLineCore

/// What `bearer logout` may do with a stored session it is asked to remove.
enum LogoutRules {
    /// What the profile's store held.
    enum Stored {
        /// No session.
        case none
        /// A file that could not be read at all (corrupt), now removed without being revoked.
        case removedUnreadable
        /// A session to disconnect.
        case session(AuthState)
    }

    /// Reads the profile's session under the store's lock, and removes it there if it is corrupt,
    /// so a `login` saving at the same time is never the one removed.
    ///
    /// - Throws: The store's error for a file that may not be read (one others can read, a folder
    ///   others can write: `insecureStorage`), and `unreadableSession` for one a newer release
    ///   wrote, whose grant this release cannot revoke: such a file is neither read nor removed.
    static func take(_ profile: Profile) async throws -> Stored {
        let store = profile.store
        let key = profile.name
        return try await store.withExclusiveAccess(to: key) {
            do {
                return try await store.load(key: key).map(Stored.session) ?? .none
            } catch let error as BearerError where error.kind == .unreadableSession {
                if let version = try store.storedFormatVersion(key: key), version > AuthState.currentVersion {
                    throw error
                }
                try await store.remove(key: key)
                return .removedUnreadable
            }
        }
    }
}
