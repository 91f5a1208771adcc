public import Bearer
public import Foundation

/// A fake `HTTPTransport` for unit tests: answers each request with the next scripted reply and
/// records every request it was sent, so an app tests its own code against Bearer without a server.
///
/// ```swift
/// let transport = RecordingTransport(replies: [
///     .json(200, #"{"access_token": "new", "token_type": "Bearer", "expires_in": 3600}"#)
/// ])
/// // … restore or sign in a session with `transport: transport`, then:
/// let tokenRequests = await transport.requests(toPathEnding: "/token")
/// ```
///
/// A request past the end of the script throws ``TransportScriptExhausted``, so a test sees an
/// unexpected request as a failure rather than a hang.
public actor RecordingTransport: HTTPTransport {
    /// One scripted answer.
    public enum Reply: Sendable {
        /// An HTTP response.
        case response(status: Int, headers: [String: String], body: Data)
        /// A failure to get any response.
        case failure(URLError.Code)
    }

    /// The requests sent so far, in order.
    public private(set) var requests: [TransportRequest] = []
    private var replies: [Reply]
    private let responseDelay: Duration?

    /// Creates a transport that answers with `replies`, in order.
    ///
    /// - Parameters:
    ///   - replies: The scripted answers.
    ///   - responseDelay: How long each answer takes, to hold requests in flight (never used to
    ///     wait for time to pass).
    public init(replies: [Reply] = [], responseDelay: Duration? = nil) {
        self.replies = replies
        self.responseDelay = responseDelay
    }

    /// The requests sent to URLs whose path ends with `suffix`.
    ///
    /// - Parameter suffix: A path suffix, e.g. `/token`.
    /// - Returns: The matching requests.
    public func requests(toPathEnding suffix: String) -> [TransportRequest] {
        requests.filter { $0.url.path.hasSuffix(suffix) }
    }

    /// Adds an answer to the end of the script.
    ///
    /// - Parameter reply: The answer.
    public func enqueue(_ reply: Reply) {
        replies.append(reply)
    }

    /// Records `request` and answers with the next scripted reply.
    ///
    /// - Parameter request: The request.
    /// - Returns: The next scripted response.
    /// - Throws: ``TransportScriptExhausted`` when no reply is left; `URLError` for a scripted
    ///   ``Reply/failure(_:)``; `CancellationError` when cancelled during a ``init(replies:responseDelay:)``
    ///   delay.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        requests.append(request)
        guard !replies.isEmpty else {
            throw TransportScriptExhausted(url: request.url)
        }
        let reply = replies.removeFirst()
        if let responseDelay { try await Task.sleep(for: responseDelay) }
        switch reply {
        case .response(let status, let headers, let body):
            return TransportResponse(status: status, headerFields: HTTPHeaderFields(headers), body: body)
        case .failure(let code):
            throw URLError(code)
        }
    }
}

extension RecordingTransport.Reply {
    /// A JSON response.
    ///
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - json: The body, as JSON text.
    ///   - headers: Extra headers.
    /// - Returns: The reply.
    public static func json(
        _ status: Int,
        _ json: String,
        headers: [String: String] = [:]
    ) -> RecordingTransport.Reply {
        .response(
            status: status,
            headers: headers.merging(["Content-Type": "application/json"]) { current, _ in current },
            body: Data(json.utf8)
        )
    }

    /// A response with any content type.
    ///
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - contentType: The `Content-Type`.
    ///   - body: The body text.
    /// - Returns: The reply.
    public static func text(_ status: Int, contentType: String, _ body: String) -> RecordingTransport.Reply {
        .response(status: status, headers: ["Content-Type": contentType], body: Data(body.utf8))
    }
}

/// Thrown when a test's transport is sent more requests than it has replies for.
public struct TransportScriptExhausted: Error, CustomStringConvertible {
    /// The URL of the unexpected request.
    public let url: URL?

    /// Creates the error for an unexpected request.
    ///
    /// - Parameter url: The request's URL.
    public init(url: URL?) {
        self.url = url
    }

    /// Says which request was unexpected.
    public var description: String { "Unexpected request to \(url?.absoluteString ?? "nil")" }
}
