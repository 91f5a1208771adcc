public import Bearer
public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A fake ``HTTPTransport`` for unit tests: answers each request with the next scripted reply and
/// records every request it was sent.
public actor RecordingTransport: HTTPTransport {
    /// One scripted answer.
    public enum Reply: Sendable {
        /// An HTTP response.
        case response(status: Int, headers: [String: String], body: Data)
        /// A failure to get any response.
        case failure(URLError.Code)
    }

    /// The requests sent so far, in order.
    public private(set) var requests: [URLRequest] = []
    private var replies: [Reply]

    /// Creates a transport that answers with `replies`, in order.
    ///
    /// - Parameter replies: The scripted answers.
    public init(replies: [Reply] = []) {
        self.replies = replies
    }

    /// Adds an answer to the end of the script.
    ///
    /// - Parameter reply: The answer.
    public func enqueue(_ reply: Reply) {
        replies.append(reply)
    }

    /// Records `request` and answers with the next scripted reply.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        requests.append(request)
        guard !replies.isEmpty else {
            throw TransportScriptExhausted(url: request.url)
        }
        switch replies.removeFirst() {
        case .response(let status, let headers, let body):
            guard let url = request.url,
                let response = HTTPURLResponse(
                    url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
            else {
                throw URLError(.badURL)
            }
            return (body, response)
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
        _ status: Int = 200,
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

    /// Says which request was unexpected.
    public var description: String { "Unexpected request to \(url?.absoluteString ?? "nil")" }
}
