#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The store keys of an ``AccountList``'s accounts, and what tells two accounts apart.
///
/// - The first account signed in is saved under the list's own key, where a single session
///   always was, so a list of one reads as it did before accounts.
/// - Each other is saved under `<key>+<16 hexadecimal digits>`: a 64-bit hash of its issuer,
///   client and user, so the same user always lands on the same key. Two users whose hashes met
///   would share one; the write checks the user it replaces, so neither overwrites the other.
enum AccountKeys {
    /// Whether `candidate` is the key of an account of the list `key`, not merely one that
    /// starts like it.
    static func belongs(_ candidate: String, to key: String) -> Bool {
        if candidate == key { return true }
        let prefix = key + "+"
        guard candidate.hasPrefix(prefix) else { return false }
        return ResourceSessionKeys.isDigest(candidate.utf8.dropFirst(prefix.utf8.count))
    }

    /// Whether `key` has the shape of an account's own key, `LIST+<16 hexadecimal digits>`, and
    /// so belongs to the list `LIST` rather than naming a list of its own.
    static func isOwnKey(_ key: String) -> Bool {
        guard let plus = key.utf8.lastIndex(of: UInt8(ascii: "+")), plus != key.utf8.startIndex else { return false }
        return ResourceSessionKeys.isDigest(key.utf8[key.utf8.index(after: plus)...])
    }

    /// The key of `state`'s own account in the list `key`; `nil` when its user is unknown.
    static func ownKey(of state: AuthState, in key: String) -> String? {
        guard let identity = identity(of: state) else { return nil }
        let name = [state.server.issuer.absoluteString, state.client.id, identity].joined(separator: "\n")
        return key + "+" + ResourceSessionKeys.digest(name)
    }

    /// What names the user of `state`: its subject, else its e-mail; `nil` for neither.
    static func identity(of state: AuthState) -> String? {
        identity(of: state.user)
    }

    /// What names `user`: the subject, else the e-mail; `nil` for neither.
    static func identity(of user: AuthState.User?) -> String? {
        if let subject = nonEmpty(user?.subject) { return "sub:" + subject }
        if let email = nonEmpty(user?.email) { return "email:" + email.lowercased() }
        return nil
    }

    /// Whether `stored` and `state` are the same account: the same issuer and client, and the same
    /// subject where both know one, else the same e-mail where both know one; two sessions that
    /// name no user are the same (nothing tells them apart), a named one and an unnamed one are not.
    static func isSameAccount(_ stored: AuthState, _ state: AuthState) -> Bool {
        guard stored.hasSameClient(as: state) else { return false }
        if let subject = nonEmpty(stored.user?.subject), let other = nonEmpty(state.user?.subject) {
            return subject == other
        }
        if let email = nonEmpty(stored.user?.email), let other = nonEmpty(state.user?.email) {
            return email.lowercased() == other.lowercased()
        }
        return identity(of: stored) == nil && identity(of: state) == nil
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
