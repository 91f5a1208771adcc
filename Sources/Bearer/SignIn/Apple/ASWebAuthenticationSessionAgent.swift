#if canImport(AuthenticationServices) && !os(tvOS) && !os(watchOS)
    public import AuthenticationServices
    public import Foundation

    /// Shows the authorization page in an `ASWebAuthenticationSession` sheet over the app's
    /// window: the way in for UIKit and AppKit apps (iOS, iPadOS, Mac Catalyst, macOS, visionOS).
    ///
    /// ```swift
    /// let agent = ASWebAuthenticationSessionAgent(anchor: view.window!)
    /// let outcome = try await AuthSession.signIn(to: .google, as: client, scopes: ["email"],
    ///                                            using: agent, store: KeychainSessionStore())
    /// ```
    ///
    /// The redirect URI's custom scheme (or, from iOS 17.4 and macOS 14.4, its https host and
    /// path) ends the sheet. Closing the sheet is ``AuthorizationAgentOutcome/cancelled``; a
    /// cancelled task closes it. The decisions live in platform-neutral code tested on every
    /// platform; this type only drives the sheet.
    @MainActor
    public final class ASWebAuthenticationSessionAgent: NSObject, AuthorizationAgent,
        ASWebAuthenticationPresentationContextProviding
    {
        private let anchor: ASPresentationAnchor
        /// Whether the sheet keeps no cookies of the user's browser (a second account needs a clean one).
        public let prefersEphemeralWebBrowserSession: Bool
        private var session: ASWebAuthenticationSession?

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
        public func present(_ request: AuthorizationRequest) async throws -> AuthorizationAgentOutcome {
            let callback = try WebAuthenticationCallback(redirectURI: request.redirectURI)
            let cancellation = CancellationSignal()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let finish: ASWebAuthenticationSession.CompletionHandler = { redirect, error in
                        continuation.resume(
                            with: Result {
                                try WebAuthenticationCompletion.outcome(
                                    redirect: redirect, error: error, taskCancelled: cancellation.isSignalled)
                            })
                    }
                    do {
                        let session = try makeSession(request.url, callback: callback, completion: finish)
                        session.presentationContextProvider = self
                        session.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
                        self.session = session
                        if !session.start() {
                            finish(nil, BearerError(.agentFailed, "The sign-in sheet could not start; try again."))
                        }
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            } onCancel: {
                cancellation.signal()
                Task { @MainActor in self.session?.cancel() }
            }
        }

        private func makeSession(
            _ url: URL,
            callback: WebAuthenticationCallback,
            completion: @escaping ASWebAuthenticationSession.CompletionHandler
        ) throws -> ASWebAuthenticationSession {
            if #available(iOS 17.4, macOS 14.4, visionOS 1.1, *) {
                let sessionCallback: ASWebAuthenticationSession.Callback =
                    switch callback {
                    case .customScheme(let scheme): .customScheme(scheme)
                    case .https(let host, let path): .https(host: host, path: path)
                    }
                return ASWebAuthenticationSession(url: url, callback: sessionCallback, completionHandler: completion)
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
