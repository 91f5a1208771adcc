#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A failure detected by Bearer itself, as opposed to one the server reported (``OAuthError``).
///
/// Each error has a ``kind`` to branch on and says, in its `description`, what went wrong, what
/// to do, and where it was raised (`BearerError.network: No response from … Sources/…:42`). When
/// another error caused it, that is its ``underlyingError`` (the `URLError` of a failed request,
/// the `POSIXError` of a failed file operation), so an app can tell offline from timed out.
///
/// Errors are equal when their kinds are equal, whatever their reasons and places, so tests and
/// apps compare them by kind: `error == BearerError.network("")` or `error.kind == .network`.
/// No error ever contains a token.
public struct BearerError: KindedError {
    package static let typeName = "BearerError"

    /// What kind of failure this is.
    public let kind: Kind
    /// What went wrong and what to do about it, in English, without secrets; the tool shows it.
    package let reason: String
    package let file: String
    package let line: UInt
    /// How long the server asked clients to wait before trying again (`Retry-After`), if it said.
    public let retryAfter: TimeInterval?
    /// The error that caused this one, when there is one: a `URLError` for ``Kind/network``
    /// (`.notConnectedToInternet`, `.timedOut`, `.cannotFindHost`, …), a `POSIXError` for
    /// ``Kind/storageFailure`` (`.ENOSPC`, `.EACCES`, …).
    public let underlyingError: (any Error)?

    init(kind: Kind, reason: String, retryAfter: TimeInterval?, underlyingError: (any Error)?, file: String, line: UInt)
    {
        self.kind = kind
        self.reason = reason
        self.retryAfter = retryAfter
        self.underlyingError = underlyingError
        self.file = file
        self.line = line
    }

    /// The same error with its reason reworded, as where a store adds which file it read.
    func rewording(_ reword: (String) -> String) -> BearerError {
        BearerError(
            kind: kind, reason: reword(reason), retryAfter: retryAfter, underlyingError: underlyingError, file: file,
            line: line)
    }

    /// Whether the user must sign in again before the session can be used.
    public var signInRequired: Bool {
        kind == .signInRequired
    }

    /// Whether the same call may succeed if tried again later, with nothing else changed: the
    /// network failed or the server is failing or busy. A ``Kind/storageFailure`` is not transient:
    /// someone must free space, fix permissions or stop the process holding a lock.
    public var isTransient: Bool {
        kind == .network || kind == .serverUnavailable
    }
}
