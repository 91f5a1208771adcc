#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A failure detected by Bearer itself, as opposed to one the server reported (``OAuthError``).
///
/// Each error has a ``kind`` to branch on, a ``reason`` that says what went wrong and what to do, the
/// place where it was raised and, when another error caused it, that ``underlyingError`` (the
/// `URLError` of a failed request, the `POSIXError` of a failed file operation), so an app can tell
/// offline from timed out. Errors compare equal when their kinds are equal, so tests and apps can
/// branch on ``kind``. No reason ever contains a token.
public struct BearerError: Error, Sendable {
    /// What kind of failure this is. New kinds may be added in later versions.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case invalidCodeVerifier
            case invalidConfiguration
            case invalidScope
            case insecureEndpoint
            case redirectMismatch
            case stateMismatch
            case issuerMismatch
            case missingIssuer
            case missingAuthorizationCode
            case unexpectedResponse
            case serverError
            case invalidResponse
            case unsupportedTokenType
            case invalidIDToken
            case missingIDToken
            case invalidDiscoveryDocument
            case unsupportedStateVersion
            case corruptState
            case missingRefreshToken
            case needsReauthentication
            case network
            case hostNotAllowed
            case userMismatch
            case storageFailure
            case insecureStorage
            case timedOut
            case agentFailed
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// The name of the kind.
        public var description: String { base.rawValue }

        /// A PKCE code verifier has the wrong length or characters (RFC 7636 §4.1).
        public static let invalidCodeVerifier = Kind(.invalidCodeVerifier)
        /// A server or client setting is missing or malformed.
        public static let invalidConfiguration = Kind(.invalidConfiguration)
        /// A scope is empty or has a character outside RFC 6749 §3.3's `NQCHAR` (a space, `"`, `\`,
        /// a control character such as a tab or a newline, or a non-ASCII character).
        public static let invalidScope = Kind(.invalidScope)
        /// An endpoint or resource URL is not https (and not an allowed loopback address).
        public static let insecureEndpoint = Kind(.insecureEndpoint)
        /// A redirect does not match the registered redirect URI.
        public static let redirectMismatch = Kind(.redirectMismatch)
        /// A redirect's `state` is missing or differs from the request's (RFC 6749 §10.12).
        public static let stateMismatch = Kind(.stateMismatch)
        /// An `iss` value differs from the server's issuer (RFC 9207 §2.4, RFC 8414 §3.3).
        public static let issuerMismatch = Kind(.issuerMismatch)
        /// A redirect lacks the `iss` parameter that the server promised to send (RFC 9207 §2.4).
        public static let missingIssuer = Kind(.missingIssuer)
        /// A redirect has no `code`, or an empty one.
        public static let missingAuthorizationCode = Kind(.missingAuthorizationCode)
        /// A response is not what an OAuth endpoint sends: wrong status or content type, not JSON.
        public static let unexpectedResponse = Kind(.unexpectedResponse)
        /// The server failed (HTTP 5xx or 429) without an OAuth error body; try again later.
        public static let serverError = Kind(.serverError)
        /// A JSON response lacks a required field or has one of the wrong type.
        public static let invalidResponse = Kind(.invalidResponse)
        /// A token response has a `token_type` other than `Bearer` (RFC 6750).
        public static let unsupportedTokenType = Kind(.unsupportedTokenType)
        /// An ID token is malformed or fails validation (OpenID Connect Core §3.1.3.7).
        public static let invalidIDToken = Kind(.invalidIDToken)
        /// The session holds no ID token that is still valid: the server issued none (no `openid`
        /// scope) or stopped sending one with refreshes.
        public static let missingIDToken = Kind(.missingIDToken)
        /// A discovery document is malformed or names another issuer.
        public static let invalidDiscoveryDocument = Kind(.invalidDiscoveryDocument)
        /// A saved session was written by a newer version of Bearer.
        public static let unsupportedStateVersion = Kind(.unsupportedStateVersion)
        /// A saved session cannot be read.
        public static let corruptState = Kind(.corruptState)
        /// A refresh was asked for but the session has no refresh token.
        public static let missingRefreshToken = Kind(.missingRefreshToken)
        /// The session's grant is gone; the user must sign in again.
        public static let needsReauthentication = Kind(.needsReauthentication)
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
        /// The user did not finish signing in before the deadline (redirect wait, device code expiry).
        public static let timedOut = Kind(.timedOut)
        /// An authorization agent could not show the sign-in page (no window to present over, no
        /// browser to open); see ``AuthorizationAgent``.
        public static let agentFailed = Kind(.agentFailed)
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// What went wrong and what to do about it, in English, without secrets.
    public let reason: String
    /// The file that raised the error.
    public let file: String
    /// The line that raised the error.
    public let line: UInt
    /// How long the server asked clients to wait before trying again (`Retry-After`), if it said.
    public var retryAfter: TimeInterval?
    /// The error that caused this one, when there is one: a `URLError` for ``Kind/network``
    /// (`.notConnectedToInternet`, `.timedOut`, `.cannotFindHost`, …), a `POSIXError` for
    /// ``Kind/storageFailure`` (`.ENOSPC`, `.EACCES`, …).
    public var underlyingError: (any Error)?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: What kind of failure this is.
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    public init(
        _ kind: Kind,
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) {
        self.kind = kind
        self.reason = reason
        self.retryAfter = retryAfter
        self.underlyingError = underlyingError
        self.file = file
        self.line = line
    }

    /// Whether the user must sign in again before the session can be used.
    public var requiresReauthentication: Bool {
        kind == .needsReauthentication || kind == .missingRefreshToken
    }

    /// Whether the same call may succeed if tried again later, with nothing else changed: the
    /// network failed or the server is failing or busy. A ``Kind/storageFailure`` is not transient:
    /// someone must free space, fix permissions or stop the process holding a lock.
    public var isTransient: Bool {
        kind == .network || kind == .serverError
    }
}

extension BearerError: Hashable {
    /// Errors are equal when their kinds are.
    public static func == (lhs: BearerError, rhs: BearerError) -> Bool {
        lhs.kind == rhs.kind
    }

    /// Hashes the kind.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
    }
}

extension BearerError: CustomStringConvertible {
    /// The kind and the reason.
    public var description: String {
        "BearerError.\(kind): \(reason)"
    }
}

extension BearerError: LocalizedError {
    /// The kind and the reason, so `localizedDescription` says what to do.
    public var errorDescription: String? { description }
}
