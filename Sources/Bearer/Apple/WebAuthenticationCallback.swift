@_spi(Bridge) import BearerCore
package import Foundation

/// How an in-app browser sheet recognises the redirect that ends it, derived from the request's
/// redirect URI: the platform-neutral half of `ASWebAuthenticationSessionAgent` and
/// `WebAuthenticationSessionAgent`.
package enum WebAuthenticationCallback: Sendable, Hashable {
    /// A private-use URI scheme (RFC 8252 §7.1), such as Google's reversed client ID; lowercased.
    case customScheme(String)
    /// An https redirect URI (RFC 8252 §7.2), matched on host and path; the host must be an
    /// associated domain of the app.
    case https(host: String, path: String)

    /// The callback of `redirectURI`.
    ///
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` for an http redirect URI (a loopback
    ///   one belongs to ``LoopbackAgent``) or one without a scheme or host.
    package init(redirectURI: URL) throws {
        guard let scheme = redirectURI.scheme?.lowercased(), !scheme.isEmpty else {
            throw BearerError.invalidConfiguration("The redirect URI has no scheme; register a custom scheme.")
        }
        switch scheme {
        case "https":
            guard let host = redirectURI.host, !host.isEmpty else {
                throw BearerError.invalidConfiguration("The https redirect URI has no host.")
            }
            self = .https(host: host.lowercased(), path: redirectURI.path.isEmpty ? "/" : redirectURI.path)
        case "http":
            throw BearerError.invalidConfiguration(
                "An in-app browser cannot catch the http redirect URI \(redirectURI.absoluteString); use a custom "
                    + "scheme or an https associated domain, or sign in with LoopbackAgent."
            )
        default:
            self = .customScheme(scheme)
        }
    }

    /// The custom scheme, for systems whose sheet knows no https callback (before iOS 17.4 and
    /// macOS 14.4).
    ///
    /// - Throws: ``BearerError/Kind/agentFailed`` for an https callback.
    package func requireCustomScheme() throws -> String {
        switch self {
        case .customScheme(let scheme):
            return scheme
        case .https(let host, _):
            throw BearerError.agentFailed(
                "An https redirect to \(host) needs iOS 17.4, macOS 14.4 or later; register a custom scheme for "
                    + "older systems."
            )
        }
    }
}

/// What an in-app browser sheet's answer means.
package enum WebAuthenticationCompletion {
    /// The error domain of `ASWebAuthenticationSessionError`.
    package static let errorDomain = "com.apple.AuthenticationServices.WebAuthenticationSession"

    /// Turns the sheet's completion into the redirect, or the error that says why there is none.
    ///
    /// - Parameters:
    ///   - redirect: The callback URL, when the sheet ended with one.
    ///   - error: The error, when it did not.
    ///   - taskCancelled: Whether the task that presented the sheet was cancelled (the sheet then
    ///     reports a cancelled login, which is the app's doing, not the user's).
    /// - Returns: The redirect.
    /// - Throws: `CancellationError` when the user closed the sheet or the task was cancelled;
    ///   ``BearerError/Kind/agentFailed``
    ///   for every other failure, with the sheet's error as ``BearerError/underlyingError``.
    package static func outcome(
        redirect: URL?,
        error: (any Error)?,
        taskCancelled: Bool
    ) throws -> URL {
        if taskCancelled { throw CancellationError() }
        if let redirect, error == nil { return redirect }
        guard let error else {
            throw BearerError.agentFailed("The sign-in sheet closed without an answer; try again.")
        }
        if error is CancellationError { throw error }
        let code = (error as NSError).domain == errorDomain ? (error as NSError).code : nil
        switch code {
        case 1:  // canceledLogin: the user closed the sheet
            throw CancellationError()
        case 2:  // presentationContextNotProvided
            throw BearerError.agentFailed(
                "The sign-in sheet has no window to appear over; pass the app's window as the presentation anchor.",
                underlyingError: error
            )
        case 3:  // presentationContextInvalid
            throw BearerError.agentFailed(
                "The presentation anchor is not a visible window of the app; pass the window that shows the "
                    + "sign-in button.",
                underlyingError: error
            )
        default:
            throw BearerError.agentFailed(
                "The sign-in sheet failed: \(error.localizedDescription)",
                underlyingError: error
            )
        }
    }
}

extension AgentAttempt {
    /// An in-app sheet's completion: a callback URL or an error, mapped by
    /// ``WebAuthenticationCompletion``.
    package func finish(redirect: URL?, error: (any Error)?) {
        let cancelled = isCancelled
        deliver(
            Result {
                try WebAuthenticationCompletion.outcome(redirect: redirect, error: error, taskCancelled: cancelled)
            }
        )
    }
}
