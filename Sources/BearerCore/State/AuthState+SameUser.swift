import Foundation

extension AuthState {
    /// Whether `other`, the grant of an incremental authorization this session asked for, may be
    /// the same user, the rule ``merging(additionalGrant:)`` applies:
    ///
    /// - both subjects (`sub`) are known: they must be equal;
    /// - this session has a subject and `other` has none: refused, since a session that proved who
    ///   signed in must be matched by the same proof (an OpenID Connect request answered without an
    ///   ID token is itself a refusal);
    /// - this session has no subject (a session migrated without one, or a sign-in without OpenID
    ///   Connect) and `other` has one: accepted only when this session's email, if it has one,
    ///   is `other`'s;
    /// - neither has a subject: accepted, since without OpenID Connect nothing tells accounts apart
    ///   (``merging(additionalGrant:)`` refuses a grant whose request asked for `openid` and got
    ///   no ID token).
    func mayBeSameUser(as other: AuthState) -> Bool {
        let mine = user?.subject ?? ""
        let theirs = other.user?.subject ?? ""
        switch (mine.isEmpty, theirs.isEmpty) {
        case (false, false):
            return mine == theirs
        case (false, true):
            return false
        case (true, false):
            guard let email = user?.email else { return true }
            return other.user?.email == email
        case (true, true):
            return true
        }
    }

    /// Whether `stored`, the copy another process saved under this session's key, may be this
    /// session's: the rule for taking it in a run and for removing it when signing out. This
    /// session is the one in memory, whose user the app shows; a copy that may be another
    /// account's is neither taken nor removed.
    ///
    /// - The copy must be of the same server (issuer) and client: a subject is unique only at
    ///   one issuer, and the session's allowed hosts are its server's.
    /// - This session has a subject (`sub`): the copy's must be the same. A copy without one
    ///   proves no user and is refused, even of the same grant, so the session never loses the
    ///   user it proved.
    /// - This session has none (migrated or imported without an ID token), and the copy holds the
    ///   same refresh token: the same grant, refreshed elsewhere, perhaps with an ID token (a
    ///   server that does not rotate refresh tokens, such as Google's, keeps it).
    /// - Both e-mails are known: they must be equal.
    /// - Otherwise the copy is taken only when neither names a user (no subject, no e-mail), since
    ///   without OpenID Connect nothing tells accounts apart. A refresh elsewhere on a server that
    ///   rotates refresh tokens cannot be told from another account's sign-in, so its copy is
    ///   refused; restoring the session takes it.
    func mayBeOwnCopy(_ stored: AuthState) -> Bool {
        guard hasSameClient(as: stored) else { return false }
        let subject = user?.subject ?? ""
        let storedSubject = stored.user?.subject ?? ""
        if !subject.isEmpty { return subject == storedSubject }
        if let refreshToken, !refreshToken.value.isEmpty, refreshToken == stored.refreshToken { return true }
        switch (knownEmail, stored.knownEmail) {
        case (let email?, let storedEmail?):
            return email == storedEmail
        case (nil, nil):
            return storedSubject.isEmpty
        default:
            return false
        }
    }

    /// Whether `other` is a session of the same server (issuer) and client.
    func hasSameClient(as other: AuthState) -> Bool {
        server.issuer == other.server.issuer && client.id == other.client.id
    }

    /// The user's e-mail, `nil` when unknown or empty.
    private var knownEmail: String? {
        guard let email = user?.email, !email.isEmpty else { return nil }
        return email
    }
}
