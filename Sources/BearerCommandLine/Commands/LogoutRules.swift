import Bearer
import BearerCommandLineCore

/// What `bearer logout` may do with a stored session it is asked to remove.
enum LogoutRules {
    /// The stored session; `nil` when there is none or it cannot be read at all (a corrupt file,
    /// an unsupported version), which is removed without being revoked.
    ///
    /// - Throws: Any other error of the store, such as a session file others can read or a folder
    ///   others can write (`insecureStorage`): such a session is neither read nor removed.
    static func load(_ profile: Profile) async throws -> AuthState? {
        do {
            return try await profile.store.load(key: profile.name)
        } catch let error as BearerError where error.kind == .unreadableSession {
            return nil
        }
    }
}
