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
/// ``AuthSession/signIn(to:as:scopes:using:store:key:additionalParameters:tokenParameters:transport:clock:configuration:)``
/// builds the request, presents it with an agent, checks the redirect, exchanges the code and
/// saves the session.
///
/// An app that shows the page itself implements one method, ``present(_:)``:
///
/// ```swift
/// struct MyBrowserAgent: AuthorizationAgent {
///     let browser: MyBrowser  // the app's own web view
///     func present(_ request: AuthorizationRequest) async throws -> URL {
///         try await browser.open(request.url, until: request.redirectURI)  // the redirect it reached
///     }
/// }
/// ```
///
/// A cancel arrives one way: `CancellationError`. An agent throws it when the user closes the page
/// and when the calling task is cancelled (it then closes the page or stops listening), and
/// ``AuthSession/signIn(to:as:scopes:using:store:key:additionalParameters:tokenParameters:transport:clock:configuration:)``
/// and ``AuthSession/addScopes(_:using:additionalParameters:tokenParameters:)`` pass it on, having
/// changed nothing. A user who declines on the page is the server's ``OAuthError`` `access_denied`.
public protocol AuthorizationAgent: Sendable {
    /// The redirect URI this agent receives, when it is not the client's registered one: a
    /// loopback agent's, whose port is chosen when it starts listening. `nil` uses
    /// ``Client/redirectURI``.
    var redirectURI: URL? { get }

    /// Shows `request` to the user and waits for the redirect.
    ///
    /// - Parameter request: The authorization request; its ``AuthorizationRequest/url`` is the
    ///   page to show, and its ``AuthorizationRequest/redirectURI`` the address that ends it.
    /// - Returns: The URL the browser was sent to at ``AuthorizationRequest/redirectURI``, as it
    ///   came: Bearer checks it (redirect URI, `state`, `iss`) and exchanges its code.
    /// - Throws: `CancellationError` when the user closed the page or the task was cancelled;
    ///   ``BearerError`` when the page cannot be shown or no answer came in time.
    func present(_ request: AuthorizationRequest) async throws -> URL
}

extension AuthorizationAgent {
    /// `nil`: the agent receives the client's registered redirect URI.
    public var redirectURI: URL? { nil }
}
