public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Reads the JSON answer of an OAuth endpoint, checking the HTTP status before decoding.
public enum EndpointResponse {
    /// The largest body read as an OAuth answer (1 MiB); token responses are a few kilobytes.
    public static let maximumBodySize = 1 << 20

    /// Returns the JSON object of a successful answer, or throws the error it carries.
    ///
    /// An `error` member becomes an ``OAuthError`` with the HTTP status, whatever the status
    /// (RFC 6749 §5.2; some servers send errors with 200). Anything else that is not a 2xx JSON
    /// object becomes a ``BearerError`` naming the status and content type, never a bare decoding error.
    ///
    /// - Parameters:
    ///   - data: The body.
    ///   - response: The HTTP response.
    ///   - endpointName: A name for messages, e.g. "token endpoint".
    /// - Returns: The decoded object.
    /// - Throws: ``OAuthError``, or ``BearerError`` with kind ``BearerError/Kind/serverError`` (5xx, 429)
    ///   or ``BearerError/Kind/unexpectedResponse``.
    public static func jsonObject(
        from data: Data,
        response: HTTPURLResponse,
        endpointName: String
    ) throws -> [String: JSONValue] {
        let status = response.statusCode
        guard data.count <= maximumBodySize else {
            throw BearerError(
                .unexpectedResponse,
                "The \(endpointName) answered HTTP \(status) with \(data.count) bytes, far more than an OAuth response; "
                    + "check the endpoint URL."
            )
        }
        let contentType = response.value(forHTTPHeaderField: "Content-Type") ?? "no content type"
        let object = try? JSONDecoder().decode([String: JSONValue].self, from: data)
        let retryAfter = response.value(forHTTPHeaderField: "Retry-After").flatMap {
            RetryAfter.delay(from: $0, now: Date())
        }
        if let object, let code = object["error"]?.stringValue {
            throw OAuthError(
                code: OAuthError.Code(rawValue: code),
                errorDescription: object["error_description"]?.stringValue,
                errorURI: object["error_uri"]?.stringValue,
                statusCode: status,
                retryAfter: retryAfter
            )
        }
        guard (200..<300).contains(status) else {
            if status >= 500 || status == 429 {
                throw BearerError(
                    .serverError,
                    "The \(endpointName) answered HTTP \(status) (\(contentType)); the server is failing or busy. "
                        + "Try again later.",
                    retryAfter: retryAfter
                )
            }
            throw BearerError(
                .unexpectedResponse,
                "The \(endpointName) answered HTTP \(status) with \(contentType), not an OAuth response. "
                    + "Check the endpoint URL."
            )
        }
        guard let object else {
            throw BearerError(
                .unexpectedResponse,
                "The \(endpointName) answered HTTP \(status) with \(contentType), not a JSON object. "
                    + "Check the endpoint URL; a proxy or captive portal may be answering instead."
            )
        }
        return object
    }
}
