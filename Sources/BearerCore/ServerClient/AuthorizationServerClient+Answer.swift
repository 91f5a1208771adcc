#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Reading an authorization server's answers: the error it carries, or the JSON object.
extension AuthorizationServerClient {
    /// Returns the JSON object of a successful answer, or throws the error it carries.
    ///
    /// An `error` member becomes an ``OAuthError`` with the HTTP status, whatever the status
    /// (RFC 6749 §5.2; some servers send errors with 200). Anything else that is not a 2xx JSON
    /// object becomes a ``BearerError`` naming the status and content type, never a bare decoding error.
    ///
    /// - Parameters:
    ///   - response: The HTTP response.
    ///   - endpointName: A name for messages.
    ///   - now: The time of receipt, for an HTTP-date `Retry-After`.
    /// - Returns: The decoded object.
    /// - Throws: ``OAuthError``, or ``BearerError`` with kind ``BearerError/Kind/serverUnavailable`` (5xx, 429)
    ///   or ``BearerError/Kind/invalidResponse``.
    static func jsonObject(
        from response: TransportResponse,
        endpointName: String,
        now: Date
    ) throws -> [String: JSONValue] {
        let status = response.status
        let data = response.body
        guard data.count <= maximumBodySize else {
            throw BearerError.invalidResponse(
                "The \(endpointName) answered HTTP \(status) with \(data.count) bytes, far more than an OAuth response; "
                    + "check the endpoint URL."
            )
        }
        let contentType = response.headerFields["Content-Type"] ?? "no content type"
        let object = try? JSONDecoder().decodeRefusingDeepNesting([String: JSONValue].self, from: data)
        let retryAfter = response.headerFields["Retry-After"].flatMap {
            RetryAfter.delay(from: $0, now: now)
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
                throw BearerError.serverUnavailable(
                    "The \(endpointName) answered HTTP \(status) (\(contentType)); the server is failing or busy. "
                        + "Try again later.",
                    retryAfter: retryAfter
                )
            }
            if status == 400 || status == 401, data.isEmpty || object != nil {
                // The server refused the request without saying why (some servers answer a replayed
                // or revoked refresh token this way). That is no proof the grant is gone, so the
                // session is not marked, but the endpoint URL is not what is wrong either.
                throw BearerError.invalidResponse(
                    "The \(endpointName) refused the request (HTTP \(status)) without an OAuth error code. "
                        + "The server may have revoked the grant or refused a refresh token it already rotated; "
                        + "try again, and if it keeps failing, sign in again."
                )
            }
            throw BearerError.invalidResponse(
                "The \(endpointName) answered HTTP \(status) with \(contentType), not an OAuth response. "
                    + "Check the endpoint URL."
            )
        }
        guard let object else {
            throw BearerError.invalidResponse(
                "The \(endpointName) answered HTTP \(status) with \(contentType), not a JSON object. "
                    + "Check the endpoint URL; a proxy or captive portal may be answering instead."
            )
        }
        return object
    }
}
