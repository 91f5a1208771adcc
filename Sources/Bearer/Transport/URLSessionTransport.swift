public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// An ``HTTPTransport`` backed by `URLSession`, which never follows redirects (a 3xx response is
/// returned to the caller as it is) and stores no cookies.
///
/// The `URLSession` is created on the first request, not with the transport: on Linux, making an
/// ephemeral configuration costs about 0.2 ms and a session about 0.5 ms, which a session restored
/// at launch only to stamp requests, or to find its token fresh, never needs to pay.
public final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
    // Unchecked: `configuration` and `timeout` never change after init; `created` changes only
    // under `lock`.
    private let configuration: URLSessionConfiguration?
    private let timeout: TimeInterval?
    private let lock = NSLock()
    private var created: URLSession?

    /// The transport of ``Authorizer/data(for:)``'s default implementation, created on first use.
    static let shared = URLSessionTransport()

    /// Creates a transport; its own `URLSession` is created on the first request.
    ///
    /// - Parameters:
    ///   - configuration: The session configuration, copied; `nil` (the default) for an ephemeral
    ///     one. Cookies and caching are turned off whatever it says.
    ///   - timeout: How long a request may wait for data before it fails, when not the
    ///     configuration's (60 s by default).
    public init(configuration: URLSessionConfiguration? = nil, timeout: TimeInterval? = nil) {
        self.configuration = configuration.map { ($0.copy() as? URLSessionConfiguration) ?? $0 }
        self.timeout = timeout
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
            let session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
            created = session
            return session
        }
    }

    /// Sends `request` and returns whatever HTTP response comes back, redirects included.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The body and the response.
    /// - Throws: `URLError` when no HTTP response arrives.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let httpResponse = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        return (data, httpResponse)
    }
}

/// Refuses every redirect, so the 3xx response itself is returned.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
