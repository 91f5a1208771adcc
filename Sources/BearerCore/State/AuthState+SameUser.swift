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
    /// session is the one in memory, whose user the app shows; a copy of another account is
    /// neither taken nor removed.
    ///
    /// - both subjects (`sub`) are known: they must be equal;
    /// - otherwise the same refresh token is the same grant, refreshed elsewhere (a server that
    ///   does not rotate refresh tokens, such as Google's, keeps it);
    /// - this session has a subject and the copy has none: refused, since a copy that proves no
    ///   user is not taken for the one this session proved;
    /// - this session has no subject (a session migrated or imported without an ID token) and
    ///   the copy has one: accepted only when both e-mails are known and equal, since a refresh
    ///   elsewhere may have brought the ID token, but so may another account's sign-in;
    /// - neither has a subject: accepted, since without OpenID Connect nothing tells accounts
    ///   apart.
    func mayBeOwnCopy(_ stored: AuthState) -> Bool {
        let mine = user?.subject ?? ""
        let theirs = stored.user?.subject ?? ""
        if !mine.isEmpty, !theirs.isEmpty { return mine == theirs }
        if let refreshToken, refreshToken == stored.refreshToken { return true }
        switch (mine.isEmpty, theirs.isEmpty) {
        case (false, _):
            return false
        case (true, false):
            guard let email = user?.email, let storedEmail = stored.user?.email else { return false }
            return email == storedEmail
        case (true, true):
            return true
        }
    }
}
