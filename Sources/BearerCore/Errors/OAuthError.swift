#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// An error that the authorization server reported, in a redirect (RFC 6749 §4.1.2.1) or in a
/// token-endpoint response (RFC 6749 §5.2).
///
/// ``code`` is open: servers may send extension codes, which are kept as they are. Errors compare
/// by code, description, URI and status.
public struct OAuthError: Error, Sendable, Hashable {
    /// The server's `error` code: one of RFC 6749's, RFC 6750's, RFC 8628's, OIDC's, or any other.
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral,
        CustomStringConvertible
    {
        /// The code as the server sent it.
        public let rawValue: String

        /// Creates a code from the server's `error` value.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Creates a code from a literal.
        public init(stringLiteral value: String) {
            self.rawValue = value
        }

        /// The code as the server sent it.
        public var description: String { rawValue }

        /// `invalid_request` (RFC 6749 §4.1.2.1, §5.2).
        public static let invalidRequest: Code = "invalid_request"
        /// `invalid_request_uri` (RFC 9101 §7.1): the `request_uri` of a pushed or referenced
        /// request is not, or no longer, good.
        public static let invalidRequestURI: Code = "invalid_request_uri"
        /// `invalid_client` (RFC 6749 §5.2).
        public static let invalidClient: Code = "invalid_client"
        /// `invalid_grant` (RFC 6749 §5.2): the code or refresh token is invalid, expired or revoked.
        public static let invalidGrant: Code = "invalid_grant"
        /// `unauthorized_client` (RFC 6749 §4.1.2.1, §5.2).
        public static let unauthorizedClient: Code = "unauthorized_client"
        /// `unsupported_grant_type` (RFC 6749 §5.2).
        public static let unsupportedGrantType: Code = "unsupported_grant_type"
        /// `invalid_scope` (RFC 6749 §4.1.2.1, §5.2).
        public static let invalidScope: Code = "invalid_scope"
        /// `invalid_target` (RFC 8693 §2.2.2, RFC 8707 §2): the server will not issue a token for the
        /// audience or resource asked for.
        public static let invalidTarget: Code = "invalid_target"
        /// `access_denied` (RFC 6749 §4.1.2.1, RFC 8628 §3.5): the user or server refused.
        public static let accessDenied: Code = "access_denied"
        /// `unsupported_response_type` (RFC 6749 §4.1.2.1).
        public static let unsupportedResponseType: Code = "unsupported_response_type"
        /// `server_error` (RFC 6749 §4.1.2.1).
        public static let serverError: Code = "server_error"
        /// `temporarily_unavailable` (RFC 6749 §4.1.2.1).
        public static let temporarilyUnavailable: Code = "temporarily_unavailable"
        /// `authorization_pending` (RFC 8628 §3.5).
        public static let authorizationPending: Code = "authorization_pending"
        /// `slow_down` (RFC 8628 §3.5).
        public static let slowDown: Code = "slow_down"
        /// `expired_token` (RFC 8628 §3.5).
        public static let expiredToken: Code = "expired_token"
        /// `invalid_token` (RFC 6750 §3.1).
        public static let invalidToken: Code = "invalid_token"
        /// `insufficient_scope` (RFC 6750 §3.1).
        public static let insufficientScope: Code = "insufficient_scope"
        /// `interaction_required` (OpenID Connect Core §3.1.2.6).
        public static let interactionRequired: Code = "interaction_required"
        /// `login_required` (OpenID Connect Core §3.1.2.6).
        public static let loginRequired: Code = "login_required"
        /// `consent_required` (OpenID Connect Core §3.1.2.6).
        public static let consentRequired: Code = "consent_required"
    }

    /// The server's `error` code.
    public var code: Code
    /// The server's `error_description`, if any: human-readable text for developers.
    public var errorDescription: String?
    /// The server's `error_uri`, if any.
    public var errorURI: String?
    /// The HTTP status of the response that carried the error, or `nil` for an error in a redirect.
    public var statusCode: Int?
    /// The scopes a resource server says the request needs (`scope` of an `insufficient_scope`
    /// challenge, RFC 6750 §3); empty otherwise.
    public var requiredScopes: [String]
    /// How long the server asked clients to wait before trying again (`Retry-After`), if it said.
    public var retryAfter: TimeInterval?
    /// The resource server's `Bearer` challenge (RFC 6750 §3), for an error a resource server
    /// sent in `WWW-Authenticate` (`insufficient_scope`): its `error_description` and `realm`.
    public var challenge: BearerChallenge?

    /// Creates an error as the server reported it.
    ///
    /// - Parameters:
    ///   - code: The `error` value.
    ///   - errorDescription: The `error_description` value.
    ///   - errorURI: The `error_uri` value.
    ///   - statusCode: The HTTP status, when the error came in an HTTP response.
    ///   - requiredScopes: The scopes a resource server asked for.
    ///   - retryAfter: The server's `Retry-After`, in seconds.
    ///   - challenge: The resource server's `Bearer` challenge, when the error came in one.
    public init(
        code: Code,
        errorDescription: String? = nil,
        errorURI: String? = nil,
        statusCode: Int? = nil,
        requiredScopes: [String] = [],
        retryAfter: TimeInterval? = nil,
        challenge: BearerChallenge? = nil
    ) {
        self.code = code
        self.errorDescription = errorDescription
        self.errorURI = errorURI
        self.statusCode = statusCode
        self.requiredScopes = requiredScopes
        self.retryAfter = retryAfter
        self.challenge = challenge
    }

    /// Whether the user must sign in again: the grant is gone or the user must interact.
    public var signInRequired: Bool {
        switch code {
        case .invalidGrant, .interactionRequired, .loginRequired, .consentRequired: true
        default: false
        }
    }

    /// Whether the same request may succeed later: the server is busy or failing.
    public var isTransient: Bool {
        if code == .serverError || code == .temporarilyUnavailable || code == .slowDown { return true }
        if let statusCode, statusCode >= 500 || statusCode == 429 { return true }
        return false
    }
}

extension OAuthError: CustomStringConvertible {
    /// The code, the server's description and the status; never a token.
    public var description: String {
        var text = "OAuthError(\(code.rawValue)"
        if let statusCode { text += ", HTTP \(statusCode)" }
        if let errorDescription { text += ": \(errorDescription)" }
        if let errorURI { text += " (see \(errorURI))" }
        if !requiredScopes.isEmpty { text += " (needs scope \(requiredScopes.joined(separator: " ")))" }
        text += ") — "
        if code == .insufficientScope {
            text += "ask the user for the missing scopes"
        } else if signInRequired {
            text += "the user must sign in again"
        } else if isTransient {
            text += "try again later"
        } else {
            text += "check the client configuration and request"
        }
        return text
    }
}
