#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

// One factory per kind, as `BearerError.network("…")`; each records the place it was called from.

extension BearerError {
    /// A discovery document is malformed or names another issuer.
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func invalidDiscoveryDocument(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .invalidDiscoveryDocument, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError,
            file: file, line: line)
    }

    /// A saved session cannot be read: it is corrupt, or a newer version of Bearer wrote it.
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func unreadableSession(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .unreadableSession, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError,
            file: file, line: line)
    }

    /// The session cannot get a token without the user: its grant is gone (`invalid_grant`) or it
    /// has no refresh token. The user must sign in again.
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func signInRequired(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .signInRequired, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError, file: file,
            line: line)
    }

    /// The request did not reach the server or no response came back.
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func network(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .network, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError, file: file,
            line: line)
    }

    /// A request's host is not on the session's allow-list, so no token is sent there.
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func hostNotAllowed(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .hostNotAllowed, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError, file: file,
            line: line)
    }

    /// A new grant belongs to another user than the session's.
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func userMismatch(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .userMismatch, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError, file: file,
            line: line)
    }

    /// A session store could not read, write or lock a session.
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func storageFailure(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .storageFailure, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError, file: file,
            line: line)
    }

    /// The refusal of a save that named `expected` as the stored copy while `stored` is: what
    /// changed, in words, and what to do.
    @_spi(Fleet) public static func storedCopyChanged(from expected: AuthState?, to stored: AuthState?) -> BearerError {
        let what =
            switch (stored, expected) {
            case (nil, _): "was removed (a sign-out elsewhere)"
            case (_, nil): "was saved by another sign-in"
            default: "was replaced by another process"
            }
        return storedCopyChanged(
            "The stored session \(what) since this one was read, so it was not overwritten. "
                + "Restore the session to see the stored one.")
    }

    /// A save was refused because the stored session is no longer the copy the new state was made from.
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func storedCopyChanged(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .storedCopyChanged, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError,
            file: file, line: line)
    }

    /// A session file or folder can be read by other users; it is refused until its mode is fixed.
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func insecureStorage(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .insecureStorage, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError,
            file: file, line: line)
    }

    /// The user did not finish signing in before the deadline (redirect wait, device code expiry).
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func timedOut(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .timedOut, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError, file: file,
            line: line)
    }

    /// An authorization agent could not show the sign-in page (no window to present over, no
    /// browser to open); see ``AuthorizationAgent``.
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func agentFailed(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .agentFailed, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError, file: file,
            line: line)
    }

    /// A session's DPoP key is missing, cannot be rebuilt or cannot sign, or a token is bound to
    /// another key; see ``Kind/proofOfPossession``.
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token or a key.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func proofOfPossession(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .proofOfPossession, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError,
            file: file, line: line)
    }
}
