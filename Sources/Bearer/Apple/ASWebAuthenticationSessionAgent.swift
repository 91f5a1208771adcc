@_spi(Bridge) import BearerCore

#if canImport(AuthenticationServices) && !os(tvOS) && !os(watchOS)
    public import AuthenticationServices
    public import Foundation

    /// Shows the authorization page in an `ASWebAuthenticationSession` sheet over the app's
    /// window: the way in for UIKit and AppKit apps (iOS, iPadOS, Mac Catalyst, macOS, visionOS).
    ///
    /// ```swift
    /// let agent = ASWebAuthenticationSessionAgent(anchor: window)
    /// let session = try await AuthSession.signIn(to: .google, as: client, scopes: ["email"],
    ///                                            using: agent, store: KeychainSessionStore())
    /// ```
    ///
    /// The redirect URI's custom scheme (or its https host and path, from iOS 17.4 and macOS
    /// 14.4) ends the sheet; closing it throws `CancellationError`.
    @MainActor
    public final class ASWebAuthenticationSessionAgent: NSObject, AuthorizationAgent,
        ASWebAuthenticationPresentationContextProviding
    {
        private let anchor: ASPresentationAnchor
        /// Whether the sheet keeps no cookies of the user's browser (a second account needs a clean one).
        public let prefersEphemeralWebBrowserSession: Bool
        private var shown: (attempt: AgentAttempt, session: ASWebAuthenticationSession)?

        /// Creates an agent that presents over `anchor`.
        ///
        /// - Parameters:
        ///   - anchor: The app's window that shows the sign-in button (never a new, detached window).
        ///   - prefersEphemeralWebBrowserSession: Whether to share no cookies with the browser.
        public init(anchor: ASPresentationAnchor, prefersEphemeralWebBrowserSession: Bool = false) {
            self.anchor = anchor
            self.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
        }

        /// Shows the sheet and waits for the redirect; see ``AuthorizationAgent/present(_:)``.
        public func present(_ request: AuthorizationRequest) async throws -> URL {
            let callback = try WebAuthenticationCallback(redirectURI: request.redirectURI)
            let attempt = AgentAttempt()
            defer { if shown?.attempt === attempt { shown = nil } }
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    attempt.attach(continuation)
                    guard !attempt.isFinished else { return }
                    do {
                        let session = try makeSession(request.url, callback: callback, completion: Self.finish(attempt))
                        session.presentationContextProvider = self
                        session.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
                        shown = (attempt, session)
                        if !session.start() {
                            attempt.fail(BearerError.agentFailed("The sign-in sheet could not start; try again."))
                        }
                    } catch {
                        attempt.fail(error)
                    }
                }
            } onCancel: {
                attempt.cancel()
                Task { @MainActor in self.closeSheet(of: attempt) }
            }
        }

        /// The sheet's completion handler. It is built outside the main actor, as a `@Sendable`
        /// function value, because AppKit calls it on a queue of its own: a closure written inline
        /// in this main-actor class would be main-actor isolated, and Swift 6 traps when another
        /// queue calls it (scripts/check-apple keeps it this way).
        private nonisolated static func finish(
            _ attempt: AgentAttempt
        ) -> @Sendable (URL?, (any Error)?) -> Void {
            { redirect, error in attempt.finish(redirect: redirect, error: error) }
        }

        private func closeSheet(of attempt: AgentAttempt) {
            guard let shown, shown.attempt === attempt else { return }
            shown.session.cancel()
            self.shown = nil
        }

        private func makeSession(
            _ url: URL,
            callback: WebAuthenticationCallback,
            completion: @escaping @Sendable (URL?, (any Error)?) -> Void
        ) throws -> ASWebAuthenticationSession {
            if #available(iOS 17.4, macOS 14.4, visionOS 1.1, *) {
                return ASWebAuthenticationSession(
                    url: url, callback: callback.sessionCallback, completionHandler: completion)
            }
            let scheme = try callback.requireCustomScheme()
            return ASWebAuthenticationSession(url: url, callbackURLScheme: scheme, completionHandler: completion)
        }

        /// The window the sheet appears over.
        public func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
            anchor
        }
    }
#endif
