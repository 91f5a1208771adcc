#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
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
/// hold up the browser, and a connection gets at most ``connectionTimeout`` to send its request.
/// Only the redirect that carries the pending request's `state`, sent to the registered `Host`,
/// ends the wait (see ``LoopbackRequest``); anything else is refused and the wait goes on. The
/// deadline and the calling task's cancellation are checked at least four times a second.
package final class LoopbackRedirectListener: Sendable {
    /// The port the listener is bound to.
    package let port: UInt16
    /// The path the redirect must have.
    package let path: String
    /// The host name of the redirect URI: `127.0.0.1`, or `localhost` when asked for.
    package let hostName: String
    private let descriptor: Int32
    private let waiting = WaitGate()

    /// The most connections served at once; a new one closes the oldest.
    package static let maximumConnections = 32

    /// The redirect URI to send: `http://127.0.0.1:<port><path>`.
    package var redirectURI: URL {
        URL(string: "http://\(hostName):\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// The page shown in the browser after the redirect.
    static let page = """
        <!doctype html><html><head><meta charset="utf-8"><title>Bearer</title></head>
        <body><p>Bearer received the answer. You can close this tab and return to the app.</p></body></html>
        """

    /// Binds a listener on 127.0.0.1.
    ///
    /// - Parameters:
    ///   - port: The port, or 0 for any free one.
    ///   - path: The redirect's path.
    ///   - usesLocalhostName: Whether the redirect URI names `localhost` instead of `127.0.0.1`.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when the port cannot be bound.
    package init(port: UInt16 = 0, path: String = "/callback", usesLocalhostName: Bool = false) throws {
        let bound = try LoopbackSocket.bindListener(port: port)
        self.descriptor = bound.descriptor
        self.port = bound.port
        self.path = path.hasPrefix("/") ? path : "/" + path
        self.hostName = usesLocalhostName ? "localhost" : "127.0.0.1"
    }

    deinit {
        closeDescriptor(descriptor)
    }

    /// Waits for the browser to bring the redirect of the pending request; one wait at a time.
    ///
    /// - Parameters:
    ///   - expected: The `state` (and issuer) the redirect must carry.
    ///   - timeout: How long to wait.
    /// - Returns: The redirect URL, with its query.
    /// - Throws: ``BearerError/Kind/timedOut`` when no redirect came in time; `CancellationError`
    ///   when the task was cancelled; ``BearerError/Kind/invalidConfiguration`` when another wait
    ///   is in progress.
    package func waitForRedirect(expecting expected: RedirectExpectation, timeout: Duration) async throws -> URL {
        guard waiting.begin() else {
            throw BearerError.invalidConfiguration(
                "This loopback agent is already waiting for a sign-in; finish or cancel that one first."
            )
        }
        defer { waiting.end() }
        let deadline = ContinuousClock.now.advanced(by: min(max(timeout, .zero), .seconds(86_400)))
        let stop = CancellationSignal()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let started = DetachedThread.start { [self] in
                    continuation.resume(with: Result { try self.serve(expected, until: deadline, stop: stop) })
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
        _ expected: RedirectExpectation,
        until deadline: ContinuousClock.Instant,
        stop: CancellationSignal
    ) throws -> URL {
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
                switch LoopbackRequest.classify(head, path: path, hosts: hosts, expecting: expected) {
                case .redirect(let target):
                    guard let url = URL(string: "http://\(hostName):\(port)\(target)") else {
                        connection.respond(status: "400 Bad Request", body: "Bad request.")
                        continue
                    }
                    connection.respond(status: "200 OK", body: Self.page, contentType: "text/html; charset=utf-8")
                    return url
                case .refuse(let status, let message):
                    connection.respond(status: status, body: message)
                }
            }
        }
    }
}

/// Lets one wait run at a time.
private final class WaitGate: @unchecked Sendable {
    private let lock = Lock()
    private var busy = false

    /// Starts a wait; `false` when one is already running.
    func begin() -> Bool {
        lock.withLock {
            defer { busy = true }
            return !busy
        }
    }

    /// Ends the running wait.
    func end() {
        lock.withLock { busy = false }
    }
}
