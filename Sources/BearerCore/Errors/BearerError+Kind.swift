extension BearerError {
    /// What kind of failure a ``BearerError`` is. New kinds may be added in later versions.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case invalidConfiguration
            case invalidScope
            case insecureEndpoint
            case invalidRedirect
            case issuerMismatch
            case invalidResponse
            case serverUnavailable
            case invalidIDToken
            case missingIDToken
            case invalidDiscoveryDocument
            case unreadableSession
            case signInRequired
            case network
            case hostNotAllowed
            case userMismatch
            case storageFailure
            case insecureStorage
            case storedCopyChanged
            case timedOut
            case agentFailed
            case proofOfPossession
            case resourceMismatch
            case registrationFailed
            case invalidSignature
            case invalidLogoutToken
            case unknownAccount
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// The name of the kind.
        public var description: String { base.rawValue }

        /// A server or client setting is missing or malformed, such as a PKCE code verifier of the wrong
        /// length or characters (RFC 7636 §4.1).
        public static let invalidConfiguration = Kind(.invalidConfiguration)

        /// A scope is empty or has a character outside RFC 6749 §3.3's `NQCHAR` (a space, `"`, `\`,
        /// a control character such as a tab or a newline, or a non-ASCII character).
        public static let invalidScope = Kind(.invalidScope)

        /// An endpoint or resource URL is not https (and not an allowed loopback address).
        public static let insecureEndpoint = Kind(.insecureEndpoint)

        /// A redirect is not the answer to the pending sign-in: another redirect URI, a missing or
        /// different `state` (RFC 6749 §10.12), a missing `iss` the server promised (RFC 9207 §2.4), or no `code`.
        public static let invalidRedirect = Kind(.invalidRedirect)

        /// An `iss` value differs from the server's issuer: a mix-up (RFC 9207 §2.4, RFC 8414 §3.3).
        public static let issuerMismatch = Kind(.issuerMismatch)

        /// A response is not what the endpoint sends: wrong status or content type, not JSON, a required
        /// field missing or of the wrong type, or a `token_type` other than `Bearer` (RFC 6750).
        public static let invalidResponse = Kind(.invalidResponse)

        /// The server failed (HTTP 5xx or 429) without an OAuth error body; try again later.
        public static let serverUnavailable = Kind(.serverUnavailable)

        /// An ID token is malformed or fails validation (OpenID Connect Core §3.1.3.7).
        public static let invalidIDToken = Kind(.invalidIDToken)

        /// The session holds no ID token that is still valid: the server issued none (no `openid`
        /// scope) or stopped sending one with refreshes.
        public static let missingIDToken = Kind(.missingIDToken)

        /// A discovery document is malformed or names another issuer.
        public static let invalidDiscoveryDocument = Kind(.invalidDiscoveryDocument)

        /// A saved session cannot be read: it is corrupt, or a newer version of Bearer wrote it.
        public static let unreadableSession = Kind(.unreadableSession)

        /// The session cannot get a token without the user: its grant is gone (`invalid_grant`) or it
        /// has no refresh token. The user must sign in again.
        public static let signInRequired = Kind(.signInRequired)

        /// The request did not reach the server or no response came back.
        public static let network = Kind(.network)

        /// A request's host is not on the session's allow-list, so no token is sent there.
        public static let hostNotAllowed = Kind(.hostNotAllowed)

        /// A new grant belongs to another user than the session's.
        public static let userMismatch = Kind(.userMismatch)

        /// A session store could not read, write or lock a session.
        public static let storageFailure = Kind(.storageFailure)

        /// A session file or folder can be read by other users; it is refused until its mode is fixed.
        public static let insecureStorage = Kind(.insecureStorage)

        /// A save was refused because the stored session is no longer the copy the new state was
        /// made from: another process signed out, or signed in another account, in between. What
        /// is stored is kept; the session says what happened to its own tokens.
        public static let storedCopyChanged = Kind(.storedCopyChanged)

        /// The user did not finish signing in before the deadline (redirect wait, device code expiry).
        public static let timedOut = Kind(.timedOut)

        /// An authorization agent could not show the sign-in page (no window to present over, no
        /// browser to open); see ``AuthorizationAgent``.
        public static let agentFailed = Kind(.agentFailed)

        /// A session's DPoP key (RFC 9449) is missing from its record, cannot be rebuilt by the
        /// configured ``DPoPKeySource``, or cannot sign; or a server bound a token to another key.
        /// The session is kept as it is: nothing bound to the key is sent without it.
        public static let proofOfPossession = Kind(.proofOfPossession)

        /// A protected resource's metadata describes another resource (RFC 9728 §3.3), or a
        /// request goes to a resource other than the one its session's tokens were issued for
        /// (RFC 8707). Nothing was sent.
        public static let resourceMismatch = Kind(.resourceMismatch)

        /// Bearer could not get a client at an authorization server: the server takes no
        /// registrations and the app configured no client for it, it refused the registration
        /// (RFC 7591 §3.2.2), or its answer cannot be used (no `client_id`, an authentication
        /// method Bearer cannot use).
        public static let registrationFailed = Kind(.registrationFailed)

        /// A signed token (an ID token) failed its signature check: its algorithm is one Bearer
        /// refuses (`none`, an HMAC algorithm), it names a key of its own choosing (`jku`, `jwk`,
        /// `x5u`, `x5c`), none of its issuer's published keys fits it, or the signature is wrong.
        /// Nothing in the token was trusted; a new grant that came with it was revoked.
        public static let invalidSignature = Kind(.invalidSignature)

        /// A logout token failed a check of OpenID Connect Back-Channel Logout 1.0 §2.6 (its
        /// `typ`, `iss`, `aud`, times, `events`, `nonce`, `jti`, `sid` or `sub`); no session was ended.
        public static let invalidLogoutToken = Kind(.invalidLogoutToken)

        /// No saved account matches the name asked for, several do, the default cannot be told
        /// (an account that may be it cannot be read), or a sign-in did not say which user signed
        /// in while other accounts are saved (ask for the `openid` scope); nothing saved was changed.
        public static let unknownAccount = Kind(.unknownAccount)
    }
}
