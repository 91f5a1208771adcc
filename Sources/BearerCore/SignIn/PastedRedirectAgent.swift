#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Signs in with a browser on another machine: for a tool run over ssh, in a container or on a
/// notebook host, for any scope (Google refuses many scopes on the device flow).
///
/// ```swift
/// let agent = try PastedRedirectAgent(
///     opener: BrowserOpener { url in print("Open this URL on any machine:\n\(url)") },
///     nextPaste: { readLine() }
/// )
/// let outcome = try await AuthSession.signIn(to: server, as: client, scopes: ["openid", "email"],
///                                            using: agent, store: store)
/// ```
///
/// The opener shows the authorization URL; the user opens it anywhere and signs in, and the
/// browser is sent to `http://127.0.0.1:PORT/callback?…`, which fails to load on that machine. The
/// user pastes that address back. A pasted line is untrusted input: it is the answer only when it
/// is the pending sign-in's redirect, checked exactly as the listener checks it (redirect URI,
/// then `state` and `iss`; an error answer with the right `state` is an answer too). Anything else
/// is refused, reported as a ``Refusal`` that says what was expected, and the wait goes on.
///
/// The agent also listens on 127.0.0.1, like ``LoopbackAgent``, for a browser that reaches this
/// machine (through an ssh port forward): whichever answer comes first wins. The listener is
/// closed as soon as the sign-in has its answer, so the other answer is refused. One sign-in per
/// agent.
public struct PastedRedirectAgent: AuthorizationAgent {
    /// What happened while the agent waited.
    public enum Event: Sendable, Hashable {
        /// A pasted line was refused; the wait goes on.
        case refused(Refusal)
        /// The browser's answer reached the listener; pasting is no longer needed.
        case answeredAtListener
        /// The pasted address was the answer; the listener is closed.
        case answeredByPaste
    }

    /// Why a pasted line is not the pending sign-in's answer. Its `description` says what was
    /// expected and never repeats the pasted text, which may carry an authorization code.
    public enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// The line is not an absolute URL.
        case notAnAddress(expected: URL)
        /// The URL is not the redirect URI (scheme, host, port and path).
        case otherAddress(expected: URL)
        /// The URL carries no `state`, several, or another sign-in's.
        case otherSignIn
        /// The URL names another issuer, or none although the server promised one (RFC 9207).
        case otherIssuer(expected: String)

        /// What was wrong and what to paste instead.
        public var description: String {
            switch self {
            case .notAnAddress(let expected):
                return "That is not an address. Paste the whole address the browser went to, starting with "
                    + "\(expected.absoluteString)?"
            case .otherAddress(let expected):
                return "That address is not this sign-in's redirect. Paste the address the browser went to after "
                    + "you signed in: it starts with \(expected.absoluteString)?"
            case .otherSignIn:
                return "That address belongs to another sign-in (its state differs). Open the URL printed above, "
                    + "sign in, and paste the address the browser goes to then."
            case .otherIssuer(let expected):
                return "That address does not come from \(expected) (its iss differs or is missing). Open the URL "
                    + "printed above and paste the address the browser goes to then."
            }
        }
    }

    private let listener: ListenerHolder
    private let opener: BrowserOpener
    private let nextPaste: @Sendable () async -> String?
    private let report: @Sendable (Event) -> Void
    /// How long to wait for an answer.
    public let timeout: Duration
    /// The port the listener is bound to.
    public let port: UInt16
    private let boundRedirectURI: URL

    /// The redirect URI to register and send: `http://127.0.0.1:<port><path>`.
    public var redirectURI: URL? { boundRedirectURI }

    /// Binds the listener.
    ///
    /// - Parameters:
    ///   - port: The port, or 0 for any free one (RFC 8252 §7.3 asks servers to allow any port).
    ///   - path: The redirect's path.
    ///   - timeout: How long to wait for an answer (5 minutes by default).
    ///   - opener: Shows the authorization URL to the user (prints it, for a tool).
    ///   - nextPaste: The next line the user pasted; `nil` when no more will come (the listener
    ///     may still answer). It is called again after each refused line, and its task is
    ///     cancelled when the listener answers first.
    ///   - report: Told each refused line and which answer won.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when the port cannot be bound.
    public init(
        port: UInt16 = 0,
        path: String = "/callback",
        timeout: Duration = .seconds(300),
        opener: BrowserOpener,
        nextPaste: @escaping @Sendable () async -> String?,
        report: @escaping @Sendable (Event) -> Void = { _ in }
    ) throws {
        let listener = try LoopbackRedirectListener(port: port, path: path)
        self.port = listener.port
        self.boundRedirectURI = listener.redirectURI
        self.listener = ListenerHolder(listener)
        self.opener = opener
        self.nextPaste = nextPaste
        self.report = report
        self.timeout = timeout
    }

    /// Checks a pasted line against the pending redirect of `request`, as the listener would.
    ///
    /// - Parameters:
    ///   - text: The pasted line; white space around it is ignored.
    ///   - request: The pending authorization request.
    /// - Returns: The redirect, when the line is the request's answer.
    /// - Throws: ``Refusal`` saying why it is not.
    public static func check(_ text: String, for request: AuthorizationRequest) throws(Refusal) -> URL {
        let pending = PendingRedirect(request)
        let line = String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        guard let url = URL(string: line), url.scheme != nil, url.host != nil else {
            throw .notAnAddress(expected: pending.redirectURI)
        }
        guard (try? AuthorizationResponse.checkMatches(url, expected: pending.redirectURI)) != nil else {
            throw .otherAddress(expected: pending.redirectURI)
        }
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        guard pending.expected.accepts(query: query) else {
            let states = FormEncoding.decodePairs(query).filter { $0.name == "state" }.map(\.value)
            let sameState = states.count == 1 && states.first.map { ConstantTime.equals($0, request.state) } == true
            throw sameState ? .otherIssuer(expected: pending.expected.issuer) : .otherSignIn
        }
        return url
    }

    /// Shows the URL, then waits for the first answer: a pasted address that passes ``check(_:for:)``
    /// or the browser at the listener.
    ///
    /// - Parameter request: A request built with this agent's ``redirectURI``.
    /// - Returns: The redirect.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when the request has another redirect
    ///   URI or the agent's sign-in is over; ``BearerError/Kind/timedOut``; `CancellationError`;
    ///   what the opener throws.
    public func present(_ request: AuthorizationRequest) async throws -> URL {
        guard request.redirectURI == boundRedirectURI else {
            throw BearerError.invalidConfiguration(
                "The request redirects to \(request.redirectURI.absoluteString), not to this agent's "
                    + "\(boundRedirectURI.absoluteString); build the request with the agent's redirectURI."
            )
        }
        guard let listener = listener.take() else {
            throw BearerError.invalidConfiguration(
                "This agent's sign-in is over; create a new agent for another sign-in.")
        }
        let (timeout, nextPaste, report) = (self.timeout, self.nextPaste, self.report)
        let redirect = try await withThrowingTaskGroup(of: URL?.self) { group in
            group.addTask {
                let url = try await listener.waitForRedirect(expecting: RedirectExpectation(request), timeout: timeout)
                report(.answeredAtListener)
                return url
            }
            group.addTask {
                while let line = await nextPaste() {
                    try Task.checkCancellation()
                    guard !line.allSatisfy(\.isWhitespace) else { continue }
                    do throws(Refusal) {
                        let url = try Self.check(line, for: request)
                        report(.answeredByPaste)
                        return url
                    } catch {
                        report(.refused(error))
                    }
                }
                return nil
            }
            try await opener.open(request.url)
            while let result = try await group.next() {
                guard let url = result else { continue }
                group.cancelAll()
                return url
            }
            throw CancellationError()
        }
        return redirect
    }
}

/// Holds the listener until the agent's one sign-in takes it; the listener closes its socket when
/// the sign-in is over and the last reference goes.
private final class ListenerHolder: @unchecked Sendable {
    private let lock = Lock()
    private var listener: LoopbackRedirectListener?

    init(_ listener: LoopbackRedirectListener) {
        self.listener = listener
    }

    /// The listener, once; `nil` afterwards.
    func take() -> LoopbackRedirectListener? {
        lock.withLock {
            defer { listener = nil }
            return listener
        }
    }
}
