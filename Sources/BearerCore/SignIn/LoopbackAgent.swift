#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Signs in through the user's browser, which is redirected to a listener on 127.0.0.1 (RFC 8252
/// §7.3): the way in for command-line tools on Linux and macOS.
///
/// ```swift
/// let session = try await AuthSession.signIn(to: server, as: Client(id: "my-tool"), scopes: ["openid", "email"],
///                                            using: LoopbackAgent(), store: store)
/// ```
///
/// The listener is bound when the agent is created (port 0 picks a free port), so ``redirectURI``
/// is known before the request is built; the port is closed as soon as the sign-in's answer is
/// returned or the wait ends otherwise (RFC 8252 §8.3), and bound again for the agent's next
/// sign-in. It waits for the redirect that carries the request's `state`, sent to the registered
/// `Host`, and refuses every other request while it goes on waiting. An answer with that `state`
/// ends the wait whatever it says: an error, or an `iss` that fails the check, then ends the
/// sign-in at once with a typed error (``OAuthError`` for an error answer,
/// ``BearerError/Kind/issuerMismatch`` for another issuer). One sign-in at a time: a second one is refused before anything is shown. A browser tab closed by
/// the user cannot be seen, so the wait ends at ``timeout``, or with `CancellationError` when the
/// task is cancelled.
public struct LoopbackAgent: AuthorizationAgent {
    private let listener: LoopbackRedirectListener
    private let opener: BrowserOpener
    /// How long to wait for the browser.
    public let timeout: Duration

    /// The port the listener is bound to.
    public var port: UInt16 { listener.port }

    /// The redirect URI to register and send: `http://127.0.0.1:<port><path>`.
    public var redirectURI: URL? { listener.redirectURI }

    /// Binds the listener.
    ///
    /// - Parameters:
    ///   - port: The port, or 0 for any free one (RFC 8252 §7.3 asks servers to allow any port).
    ///   - path: The redirect's path.
    ///   - timeout: How long to wait for the browser (5 minutes by default).
    ///   - opener: Opens the authorization page.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when the port cannot be bound.
    public init(
        port: UInt16 = 0,
        path: String = "/callback",
        timeout: Duration = .seconds(300),
        opener: BrowserOpener
    ) throws {
        self.listener = try LoopbackRedirectListener(port: port, path: path)
        self.opener = opener
        self.timeout = timeout
    }

    /// Opens the page and waits for the redirect with the request's `state`.
    ///
    /// - Parameter request: A request built with this agent's ``redirectURI``.
    /// - Returns: The redirect.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when the request has another redirect
    ///   URI or another sign-in is waiting (nothing is opened then); ``BearerError/Kind/timedOut``;
    ///   `CancellationError`; what the opener throws.
    public func present(_ request: AuthorizationRequest) async throws -> URL {
        guard request.redirectURI == listener.redirectURI else {
            throw BearerError.invalidConfiguration(
                "The request redirects to \(request.redirectURI.absoluteString), not to this agent's "
                    + "\(listener.redirectURI.absoluteString); build the request with the agent's redirectURI."
            )
        }
        let listener = self.listener
        let timeout = self.timeout
        try listener.beginWait()
        defer { listener.endWait() }
        // A provider logout's page holds the ID token: the browser opens a page of the listener,
        // which sends it on, so the token is on no command line.
        let startPage = request.endSessionPage.map(LoopbackStartPage.init(page:))
        let opened = startPage?.address(on: listener.redirectURI) ?? request.url
        return try await withThrowingTaskGroup(of: URL.self) { group in
            group.addTask {
                try await listener.waitHavingBegun(
                    expecting: RedirectExpectation(request), timeout: timeout, startPage: startPage)
            }
            try await opener.open(opened)
            guard let redirect = try await group.next() else { throw CancellationError() }
            return redirect
        }
    }
}
