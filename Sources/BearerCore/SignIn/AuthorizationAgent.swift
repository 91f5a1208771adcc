#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Shows an authorization page to the user and gives back the redirect: the one thing that
/// differs between an iOS app, a SwiftUI app, a Mac app and a command-line tool.
///
/// Bearer ships an agent for each way of showing the page: `ASWebAuthenticationSessionAgent`
/// (UIKit and AppKit apps), `WebAuthenticationSessionAgent` (SwiftUI), ``DefaultBrowserAgent``
/// (the user's default browser, resumed from the app's URL handler) and ``LoopbackAgent`` (tools).
/// ``AuthSession/signIn(to:as:scopes:using:store:key:additionalParameters:transport:clock:configuration:)``
/// builds the request, presents it with an agent, checks the redirect, exchanges the code and
/// saves the session.
///
/// An agent reports a user who closed the page as ``AuthorizationAgentOutcome/cancelled``, not as
/// an error. When the calling task is cancelled, the agent closes the page (or stops listening)
/// and throws `CancellationError`.
public protocol AuthorizationAgent: Sendable {
    /// The redirect URI this agent receives, when it is not the client's registered one: a
    /// loopback agent's, whose port is chosen when it starts listening. `nil` uses
    /// ``Client/redirectURI``.
    var redirectURI: URL? { get }

    /// Shows `request` to the user and waits for the redirect.
    ///
    /// - Parameter request: The authorization request; its ``AuthorizationRequest/url`` is the
    ///   page to show, and its ``AuthorizationRequest/redirectURI`` the address that ends it.
    /// - Returns: The redirect, or ``AuthorizationAgentOutcome/cancelled`` when the user closed
    ///   the page.
    /// - Throws: `CancellationError` when the task was cancelled; ``BearerError`` when the page
    ///   cannot be shown or no answer came in time.
    func present(_ request: AuthorizationRequest) async throws -> AuthorizationAgentOutcome
}

extension AuthorizationAgent {
    /// `nil`: the agent receives the client's registered redirect URI.
    public var redirectURI: URL? { nil }
}

/// How an authorization page ended.
public enum AuthorizationAgentOutcome: Sendable, Hashable {
    /// The browser was sent to the redirect URI; the URL carries the answer, which
    /// ``AuthorizationResponse/init(redirect:for:)`` checks.
    case redirect(URL)
    /// The user closed the page. This is not a failure: nothing changes.
    case cancelled
}

extension AuthorizationAgentOutcome: RedactedDescription {
    /// The outcome, without the redirect's query (it carries the authorization code).
    public var description: String {
        switch self {
        case .redirect(let url):
            return "redirect(\(url.scheme ?? "")://\(url.host ?? "")\(url.path)?<redacted>)"
        case .cancelled:
            return "cancelled"
        }
    }
}
