#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

// One factory per kind, as `BearerError.network("…")`; each records the place it was called from.

extension BearerError {
    /// A server or client setting is missing or malformed, such as a PKCE code verifier of the wrong
    /// length or characters (RFC 7636 §4.1).
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func invalidConfiguration(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .invalidConfiguration, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError,
            file: file, line: line)
    }

    /// A scope is empty or has a character outside RFC 6749 §3.3's `NQCHAR` (a space, `"`, `\`,
    /// a control character such as a tab or a newline, or a non-ASCII character).
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func invalidScope(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .invalidScope, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError, file: file,
            line: line)
    }

    /// An endpoint or resource URL is not https (and not an allowed loopback address).
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func insecureEndpoint(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .insecureEndpoint, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError,
            file: file, line: line)
    }

    /// A redirect is not the answer to the pending sign-in: another redirect URI, a missing or
    /// different `state` (RFC 6749 §10.12), a missing `iss` the server promised (RFC 9207 §2.4), or no `code`.
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func invalidRedirect(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .invalidRedirect, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError,
            file: file, line: line)
    }

    /// An `iss` value differs from the server's issuer: a mix-up (RFC 9207 §2.4, RFC 8414 §3.3).
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func issuerMismatch(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .issuerMismatch, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError, file: file,
            line: line)
    }

    /// A response is not what the endpoint sends: wrong status or content type, not JSON, a required
    /// field missing or of the wrong type, or a `token_type` other than `Bearer` (RFC 6750).
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func invalidResponse(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .invalidResponse, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError,
            file: file, line: line)
    }

    /// The server failed (HTTP 5xx or 429) without an OAuth error body; try again later.
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func serverUnavailable(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .serverUnavailable, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError,
            file: file, line: line)
    }

    /// An ID token is malformed or fails validation (OpenID Connect Core §3.1.3.7).
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func invalidIDToken(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .invalidIDToken, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError, file: file,
            line: line)
    }

    /// A signed token failed its signature check; see ``Kind/invalidSignature``.
    ///
    /// - Parameters:
    ///   - reason: What was refused and what to do; never include a token.
    ///   - underlyingError: The platform's error, if any.
    ///   - file: The file that made the error.
    ///   - line: The line that made the error.
    /// - Returns: The error.
    public static func invalidSignature(
        _ reason: String,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .invalidSignature, reason: reason, retryAfter: nil, underlyingError: underlyingError, file: file,
            line: line)
    }

    /// A logout token failed a check of its claims; see ``Kind/invalidLogoutToken``.
    ///
    /// - Parameters:
    ///   - reason: What was refused; never include a token.
    ///   - file: The file that made the error.
    ///   - line: The line that made the error.
    /// - Returns: The error.
    public static func invalidLogoutToken(_ reason: String, file: String = #fileID, line: UInt = #line)
        -> BearerError
    {
        BearerError(
            kind: .invalidLogoutToken, reason: reason, retryAfter: nil, underlyingError: nil, file: file, line: line)
    }

    /// No saved account matches, several do, or a sign-in's user is unknown; see ``Kind/unknownAccount``.
    ///
    /// - Parameters:
    ///   - reason: What was asked for and what to do; never include a token.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The file that made the error.
    ///   - line: The line that made the error.
    /// - Returns: The error.
    public static func unknownAccount(
        _ reason: String,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .unknownAccount, reason: reason, retryAfter: nil, underlyingError: underlyingError, file: file,
            line: line)
    }

    /// The session holds no ID token that is still valid: the server issued none (no `openid`
    /// scope) or stopped sending one with refreshes.
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func missingIDToken(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .missingIDToken, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError, file: file,
            line: line)
    }
}
