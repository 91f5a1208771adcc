#if canImport(AuthenticationServices) && canImport(SwiftUI)
    public import AuthenticationServices
    public import Foundation
    // WebAuthenticationSession lives in _AuthenticationServices_SwiftUI, the cross-import overlay
    // that importing both frameworks brings in. Since Swift 6.0 the overlay is imported with the
    // more restrictive access of the two imports, so both are public: with an internal SwiftUI
    // import the public initializer below would not compile.
    public import SwiftUI

    /// Shows the authorization page with SwiftUI's `WebAuthenticationSession`, so a SwiftUI button
    /// signs in with no UIKit glue.
    ///
    /// ```swift
    /// @Environment(\.webAuthenticationSession) private var webAuthenticationSession
    /// // in the button's action:
    /// let agent = WebAuthenticationSessionAgent(webAuthenticationSession)
    /// let session = try await AuthSession.signIn(to: .google, as: client, scopes: ["email"],
    ///                                            using: agent, store: store)
    /// ```
    ///
    /// Closing the sheet throws `CancellationError`; the decisions live in
    /// platform-neutral code, and this type only calls the session.
    @available(iOS 16.4, macOS 13.3, tvOS 16.4, visionOS 1.0, watchOS 9.4, *)
    @MainActor
    public struct WebAuthenticationSessionAgent: AuthorizationAgent {
        private let session: WebAuthenticationSession
        /// Whether the sheet keeps no cookies of the user's browser (a second account needs a clean one).
        public let prefersEphemeralWebBrowserSession: Bool

        /// Creates an agent over the environment's session.
        ///
        /// - Parameters:
        ///   - session: The view's `@Environment(\.webAuthenticationSession)`.
        ///   - prefersEphemeralWebBrowserSession: Whether to share no cookies with the browser.
        public init(_ session: WebAuthenticationSession, prefersEphemeralWebBrowserSession: Bool = false) {
            self.session = session
            self.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
        }

        /// Shows the sheet and waits for the redirect; see ``AuthorizationAgent/present(_:)``.
        public func present(_ request: AuthorizationRequest) async throws -> URL {
            let callback = try WebAuthenticationCallback(redirectURI: request.redirectURI)
            let browser: WebAuthenticationSession.BrowserSession =
                prefersEphemeralWebBrowserSession ? .ephemeral : .shared
            do {
                if #available(iOS 17.4, macOS 14.4, tvOS 17.4, visionOS 1.1, watchOS 10.4, *) {
                    return try await session.authenticate(
                        using: request.url, callback: callback.sessionCallback, preferredBrowserSession: browser,
                        additionalHeaderFields: [:])
                }
                return try await session.authenticate(
                    using: request.url, callbackURLScheme: try callback.requireCustomScheme(),
                    preferredBrowserSession: browser)
            } catch let error as BearerError {
                throw error
            } catch {
                return try WebAuthenticationCompletion.outcome(
                    redirect: nil, error: error, taskCancelled: Task.isCancelled)
            }
        }
    }
#endif
