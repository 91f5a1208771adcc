#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Signs in in the user's default browser and waits for the app to hand the redirect back from
/// its URL handler: `onOpenURL` in SwiftUI, `application(_:open:options:)` in UIKit, or
/// `application(_:open:)` in AppKit. This is the way in for Mac apps that prefer the user's own
/// browser to a sheet.
///
/// ```swift
/// let agent = DefaultBrowserAgent(opener: .workspace)
/// // In the app's URL handler:
/// //     .onOpenURL { url in _ = agent.resume(with: url) }
/// let session = try await AuthSession.signIn(to: server, as: client, scopes: ["openid"],
///                                            using: agent, store: store)
/// ```
///
/// One authorization is pending at a time: presenting another one ends the first with
/// `CancellationError`. A URL that is not the pending authorization's
/// redirect (another redirect URI, another `state`, or nothing pending) is reported as not
/// handled and changes nothing.
public final class DefaultBrowserAgent: AuthorizationAgent, @unchecked Sendable {
    private let opener: BrowserOpener
    private let lock = Lock()
    private var pending: (redirect: PendingRedirect, attempt: AgentAttempt)?

    /// Creates an agent.
    ///
    /// - Parameter opener: Opens the authorization page: `BrowserOpener.workspace` (Apple platforms) in a Mac app.
    public init(opener: BrowserOpener) {
        self.opener = opener
    }

    /// Opens the page and waits until the app passes the redirect to ``resume(with:)``, the user
    /// gives up through ``cancel()``, or the task is cancelled.
    ///
    /// - Parameter request: The authorization request; its redirect URI must reach the app.
    /// - Returns: The redirect.
    /// - Throws: `CancellationError` after ``cancel()``, when another authorization replaced this
    ///   one, or when the task was cancelled; what the opener throws.
    public func present(_ request: AuthorizationRequest) async throws -> URL {
        let attempt = AgentAttempt()
        let replaced = lock.withLock {
            defer { pending = (PendingRedirect(request), attempt) }
            return pending?.attempt
        }
        replaced?.deliver(.failure(CancellationError()))
        return try await withTaskCancellationHandler {
            do {
                try await opener.open(request.url)
            } catch {
                finish(attempt, with: .failure(error))
            }
            return try await withCheckedThrowingContinuation { continuation in
                attempt.attach(continuation)
            }
        } onCancel: {
            finish(attempt, with: .failure(CancellationError()))
        }
    }

    /// Hands the app's incoming URL to the pending authorization.
    ///
    /// - Parameter url: The URL the app was asked to open.
    /// - Returns: `true` when it was the pending authorization's redirect, which then completes;
    ///   `false` when it is not (the app handles it otherwise), and nothing changes.
    @discardableResult
    public func resume(with url: URL) -> Bool {
        let matched = lock.withLock { () -> AgentAttempt? in
            guard let pending, pending.redirect.accepts(url) else { return nil }
            self.pending = nil
            return pending.attempt
        }
        matched?.deliver(.success(url))
        return matched != nil
    }

    /// Ends the pending authorization with `CancellationError`, for an app
    /// that offers the user a way to give up while the browser is open.
    public func cancel() {
        let cancelled = lock.withLock { () -> AgentAttempt? in
            defer { pending = nil }
            return pending?.attempt
        }
        cancelled?.deliver(.failure(CancellationError()))
    }

    /// Ends `attempt` with `result`, and forgets it if it is still the pending one.
    private func finish(_ attempt: AgentAttempt, with result: Result<URL, any Error>) {
        lock.withLock {
            if pending?.attempt === attempt { pending = nil }
        }
        attempt.deliver(result)
    }
}
