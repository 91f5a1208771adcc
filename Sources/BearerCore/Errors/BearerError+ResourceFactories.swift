#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension BearerError {
    /// Metadata describes another resource, or a request goes to another resource than its
    /// session's; see ``Kind/resourceMismatch``.
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a token.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func resourceMismatch(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .resourceMismatch, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError,
            file: file, line: line)
    }

    /// No client could be had at an authorization server; see ``Kind/registrationFailed``.
    ///
    /// - Parameters:
    ///   - reason: What went wrong and what to do; never include a secret.
    ///   - retryAfter: How long the server asked clients to wait, if it said.
    ///   - underlyingError: The error that caused this one, if any.
    ///   - file: The raising file.
    ///   - line: The raising line.
    /// - Returns: The error.
    public static func registrationFailed(
        _ reason: String,
        retryAfter: TimeInterval? = nil,
        underlyingError: (any Error)? = nil,
        file: String = #fileID,
        line: UInt = #line
    ) -> BearerError {
        BearerError(
            kind: .registrationFailed, reason: reason, retryAfter: retryAfter, underlyingError: underlyingError,
            file: file, line: line)
    }
}
