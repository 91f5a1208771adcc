public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// An ``HTTPTransport`` backed by `URLSession`, which never follows redirects (a 3xx response is
/// returned to the caller as it is) and stores no cookies.
///
/// Exchanges with OAuth endpoints (``send(_:maximumBodySize:)``) are bounded in size and time: an
/// answer whose `Content-Length` is over the limit is refused before its body is read, reading
/// stops at the limit when no length is declared, and the whole exchange must finish within
/// ``exchangeDeadline``, however slowly the server trickles bytes.
///
/// The `URLSession` is created on the first request, not with the transport: on Linux, making an
/// ephemeral configuration costs about 0.2 ms and a session about 0.5 ms, which a session restored
/// at launch only to stamp requests, or to find its token fresh, never needs to pay.
public final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
    // Unchecked: `configuration`, `timeout` and `exchanges` never change after init; `created`
    // changes only under `lock`.
    private let configuration: URLSessionConfiguration?
    private let timeout: TimeInterval?
    private let exchanges = TransportExchanges()
    private let lock = NSLock()
    private var created: URLSession?

    /// The longest an exchange with an OAuth endpoint may take, from sending the request to the
    /// last byte of the answer.
    public let exchangeDeadline: Duration

    /// The process's one transport, created on first use: for ``Authorizer/data(for:)``'s default
    /// implementation and every call of `AuthSession` that takes no transport, so that they share
    /// connections.
    static let shared = URLSessionTransport()

    /// Creates a transport; its own `URLSession` is created on the first request.
    ///
    /// - Parameters:
    ///   - configuration: The session configuration, copied; `nil` (the default) for an ephemeral
    ///     one. Cookies and caching are turned off whatever it says.
    ///   - timeout: How long a request may wait for data before it fails, when not the
    ///     configuration's (60 s by default); also the ``exchangeDeadline`` of OAuth exchanges.
    public init(configuration: URLSessionConfiguration? = nil, timeout: TimeInterval? = nil) {
        self.configuration = configuration.map { ($0.copy() as? URLSessionConfiguration) ?? $0 }
        self.timeout = timeout
        let seconds = timeout ?? configuration?.timeoutIntervalForRequest ?? 60
        self.exchangeDeadline = .milliseconds(
            Int64((seconds.isFinite && seconds > 0 ? min(seconds, 86_400) : 60) * 1000))
    }

    deinit {
        created?.finishTasksAndInvalidate()
    }

    /// The `URLSession`, created on first use.
    private var session: URLSession {
        lock.withLock {
            if let created { return created }
            let configuration = configuration ?? .ephemeral
            if let timeout { configuration.timeoutIntervalForRequest = timeout }
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            let session = URLSession(configuration: configuration, delegate: exchanges, delegateQueue: nil)
            created = session
            return session
        }
    }

    /// Sends `request` and returns whatever HTTP response comes back, redirects included.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The response.
    /// - Throws: ``BearerError/Kind/network`` with the `URLError` when no HTTP response arrives.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        try await exchange(URLRequest(request), limit: nil, deadline: nil)
    }

    /// Sends a request to an OAuth endpoint, reading at most `maximumBodySize` bytes of the
    /// answer, and gives up after ``exchangeDeadline``.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - maximumBodySize: The most bytes of body to read.
    /// - Returns: The response.
    /// - Throws: ``BearerError/Kind/invalidResponse`` for a larger answer (nothing past the
    ///   limit is read); ``BearerError/Kind/network`` with an underlying `URLError` `.timedOut`
    ///   past the deadline, or the `URLError` when no HTTP response arrives.
    public func send(_ request: TransportRequest, maximumBodySize: Int) async throws -> TransportResponse {
        try await exchange(URLRequest(request), limit: maximumBodySize, deadline: exchangeDeadline)
    }

    private func exchange(_ request: URLRequest, limit: Int?, deadline: Duration?) async throws -> TransportResponse {
        do {
            let (body, response) = try await started(request, limit: limit, deadline: deadline)
            return TransportResponse(response, body: body)
        } catch let error as URLError where error.code != .cancelled {
            let host = request.url?.host ?? "the server"
            throw BearerError.network(
                "No response from \(host): \(error.localizedDescription). Check the connection and try again.",
                underlyingError: error
            )
        }
    }

    private func started(_ request: URLRequest, limit: Int?, deadline: Duration?) async throws -> (
        Data, HTTPURLResponse
    ) {
        let task = session.dataTask(with: request)
        let exchanges = self.exchanges
        let timer = deadline.map { deadline in
            Task {
                try await Task.sleep(for: deadline)
                let host = request.url?.host ?? "the server"
                let seconds = deadline.components.seconds
                exchanges.fail(
                    task,
                    with: BearerError.network(
                        "No response from \(host) within \(seconds) s: its answer did not finish in time. Try again "
                            + "later, or allow more time.",
                        underlyingError: URLError(.timedOut)
                    )
                )
            }
        }
        defer { timer?.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                exchanges.start(task, url: request.url, limit: limit, continuation: continuation)
            }
        } onCancel: {
            task.cancel()
        }
    }
}

extension URLSessionTransport: CustomReflectable {
    /// A mirror with the deadline only: `dump` reaches neither the `URLSession` nor the requests in
    /// flight, whose `Authorization` fields carry a token or the client's secret.
    public var customMirror: Mirror {
        Mirror(self, children: ["exchangeDeadline": exchangeDeadline], displayStyle: .class)
    }
}
