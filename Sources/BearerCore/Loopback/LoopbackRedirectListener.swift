#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP listener on 127.0.0.1 that waits for the browser's authorization redirect (RFC 8252
/// §7.3); ``LoopbackAgent`` drives it.
///
/// It serves every connection at once from one poll loop, so a client that sends slowly cannot
/// hold up the browser, and a connection gets at most `LoopbackConnection.requestTimeout` (5 s) to
/// send its request, and 1 s of silence (`silenceTimeout`) before it is closed.
/// Only the redirect that carries the pending request's `state`, sent to the registered `Host`,
/// ends the wait (see ``LoopbackRequest``); anything else is refused and the wait goes on. The
/// deadline and the calling task's cancellation are checked at least four times a second.
///
/// The port is bound when the listener is created and closed as soon as a wait ends (the
/// response returned, the wait cancelled or timed out), as RFC 8252 §8.3 asks; a later wait binds
/// the same port again.
final class LoopbackRedirectListener: Sendable {
    /// The port the listener is bound to.
    let port: UInt16
    /// The path the redirect must have.
    let path: String
    /// The host name of the redirect URI: `127.0.0.1`.
    let hostName = "127.0.0.1"
    private let socket: ListeningSocket

    /// The most connections served at once; a new one closes the oldest.
    static let maximumConnections = 32

    /// The redirect URI to send: `http://127.0.0.1:<port><path>`.
    var redirectURI: URL {
        URL(string: "http://\(hostName):\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// The page shown in the browser after the redirect.
    static let page = """
        <!doctype html><html><head><meta charset="utf-8"><title>Bearer</title></head>
        <body><p>Bearer received the answer. You can close this tab and return to the app.</p></body></html>
        """

    /// The page shown after an answer that declines the sign-in or reports the server's error.
    static let declinedPage = """
        <!doctype html><html><head><meta charset="utf-8"><title>Bearer</title></head>
        <body><p>The sign-in was declined or ended with an error. You can close this tab and return to the app.</p>
        </body></html>
        """

    /// The page shown after an answer that fails the issuer check (RFC 9207).
    static let refusedPage = """
        <!doctype html><html><head><meta charset="utf-8"><title>Bearer</title></head>
        <body><p>This answer did not come from the expected server, so the sign-in was stopped. Return to the app
        and start it again.</p></body></html>
        """

    /// The page for an answer of `verdict`.
    static func page(for verdict: RedirectExpectation.Verdict, query: String) -> String {
        switch verdict {
        case .failsIssuerCheck: return refusedPage
        case .errorWithoutIssuer: return declinedPage
        case .answer, .notThisSignIn:
            let isError = FormEncoding.decodePairs(query).contains { $0.name == "error" }
            return isError ? declinedPage : page
        }
    }

    /// Binds a listener on 127.0.0.1.
    ///
    /// - Parameters:
    ///   - port: The port, or 0 for any free one.
    ///   - path: The redirect's path.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when the port cannot be bound.
    init(port: UInt16 = 0, path: String = "/callback") throws {
        let bound = try LoopbackSocket.bindListener(port: port)
        self.socket = ListeningSocket(descriptor: bound.descriptor)
        self.port = bound.port
        self.path = path.hasPrefix("/") ? path : "/" + path
    }

    /// Whether the port is bound now (between waits it is closed).
    var isListening: Bool { socket.isOpen }

    /// Claims the listener for one wait, before anything is shown: binds the port again when an
    /// earlier wait closed it.
    ///
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when another wait is in progress or the
    ///   port cannot be bound again.
    func beginWait() throws {
        try socket.claim(port: port)
    }

    /// Ends the claimed wait and closes the port.
    func endWait() {
        socket.release()
    }

    /// Waits for the browser to bring the redirect of the pending request; one wait at a time.
    /// The port is closed when the wait ends.
    ///
    /// - Parameters:
    ///   - expected: The `state` (and issuer) the redirect must carry.
    ///   - timeout: How long to wait.
    /// - Returns: The redirect URL, with its query.
    /// - Throws: ``BearerError/Kind/timedOut`` when no redirect came in time; `CancellationError`
    ///   when the task was cancelled; ``BearerError/Kind/invalidConfiguration`` when another wait
    ///   is in progress.
    func waitForRedirect(expecting expected: RedirectExpectation, timeout: Duration) async throws -> URL {
        try beginWait()
        defer { endWait() }
        return try await waitHavingBegun(expecting: expected, timeout: timeout)
    }

    /// Waits as ``waitForRedirect(expecting:timeout:)`` does, once ``beginWait()`` has claimed the
    /// listener; the caller calls ``endWait()`` after.
    ///
    /// With `startPage`, the listener also answers that page's path once, sending the browser on
    /// to its page (see ``LoopbackStartPage``).
    func waitHavingBegun(
        expecting expected: RedirectExpectation, timeout: Duration, startPage: LoopbackStartPage? = nil
    ) async throws -> URL {
        guard let descriptor = socket.descriptor else {
            throw BearerError.invalidConfiguration("The loopback listener is not listening; start the sign-in again.")
        }
        let deadline = ContinuousClock.now.advanced(by: min(max(timeout, .zero), .seconds(86_400)))
        let stop = CancellationSignal()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let started = DetachedThread.start { [self] in
                    continuation.resume(
                        with: Result {
                            try self.serve(descriptor, expected, until: deadline, stop: stop, startPage: startPage)
                        })
                }
                if !started {
                    continuation.resume(
                        throwing: BearerError.invalidConfiguration(
                            "The system refused a thread for the loopback listener; close other programs and try again."
                        ))
                }
            }
        } onCancel: {
            stop.signal()
        }
    }

    private func serve(
        _ descriptor: Int32,
        _ expected: RedirectExpectation,
        until deadline: ContinuousClock.Instant,
        stop: CancellationSignal,
        startPage: LoopbackStartPage?
    ) throws -> URL {
        var startPage = startPage
        var connections: [LoopbackConnection] = []
        defer {
            for connection in connections { connection.close() }
        }
        let hosts: Set<String> = ["\(hostName):\(port)"]
        while true {
            if stop.isSignalled { throw CancellationError() }
            let now = ContinuousClock.now
            guard now < deadline else {
                throw BearerError.timedOut(
                    "No answer came from the browser in time; start the sign-in again and finish it sooner."
                )
            }
            connections.removeAll { connection in
                guard connection.hasExpired(at: now) else { return false }
                connection.close()
                return true
            }
            let ready = LoopbackSocket.waitForReadable(
                listener: descriptor,
                connections: connections.map(\.descriptor),
                timeout: min(now.duration(to: deadline), .milliseconds(250))
            )
            if ready.listener, let accepted = LoopbackSocket.acceptConnection(descriptor) {
                // At the limit the oldest connection makes room: holding connections open cannot
                // keep the browser out.
                if connections.count >= Self.maximumConnections { connections.removeFirst().close() }
                connections.append(LoopbackConnection(descriptor: accepted, openedAt: now))
            }
            for index in connections.indices.reversed() where ready.connections.contains(connections[index].descriptor)
            {
                let connection = connections[index]
                let head: String
                switch connection.read() {
                case .incomplete: continue
                case .head(let received): head = received
                case .closed:
                    connections.remove(at: index)
                    connection.close()
                    continue
                }
                connections.remove(at: index)
                defer { connection.close() }
                switch LoopbackRequest.classify(
                    head, path: path, hosts: hosts, expecting: expected, startPath: startPage?.path)
                {
                case .start:
                    // Once: the page it sends the browser to holds a credential.
                    if let page = startPage?.page {
                        connection.respond(status: "303 See Other", body: "", location: page)
                    }
                    startPage = nil
                case .redirect(let target):
                    guard let url = URL(string: "http://\(hostName):\(port)\(target)") else {
                        connection.respond(status: "400 Bad Request", body: "Bad request.")
                        continue
                    }
                    let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
                    let page = Self.page(for: expected.verdict(query: query), query: query)
                    connection.respond(status: "200 OK", body: page, contentType: "text/html; charset=utf-8")
                    return url
                case .refuse(let status, let message):
                    connection.respond(status: status, body: message)
                }
            }
        }
    }
}

/// The listening descriptor and whether a wait holds it: one wait at a time, and the port closed
/// between waits.
private final class ListeningSocket: @unchecked Sendable {
    private let lock = Lock()
    private var current: Int32?
    private var busy = false

    init(descriptor: Int32) {
        current = descriptor
    }

    deinit {
        if let current { closeDescriptor(current) }
    }

    var descriptor: Int32? { lock.withLock { current } }

    var isOpen: Bool { lock.withLock { current != nil } }

    /// Starts a wait, binding `port` again when it was closed.
    func claim(port: UInt16) throws {
        try lock.withLock {
            guard !busy else {
                throw BearerError.invalidConfiguration(
                    "This loopback agent is already waiting for a sign-in; finish or cancel that one first."
                )
            }
            if current == nil { current = try LoopbackSocket.bindListener(port: port).descriptor }
            busy = true
        }
    }

    /// Ends the wait and closes the port.
    func release() {
        lock.withLock {
            if let current { closeDescriptor(current) }
            current = nil
            busy = false
        }
    }
}
