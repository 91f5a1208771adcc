#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One of a server's form-POST endpoints (token, revocation, device authorization): builds the
/// request, sends it, and reads the JSON answer, checking the HTTP status before decoding.
struct OAuthEndpoint: Sendable {
    /// The largest body read as an OAuth answer (1 MiB); token responses are a few kilobytes.
    static let maximumBodySize = 1 << 20

    /// The endpoint's URL.
    let url: URL
    /// A name for messages, e.g. "token endpoint".
    let name: String
    /// The server the endpoint belongs to, which decides whether loopback http is allowed and how
    /// a client with a secret authenticates.
    let server: AuthorizationServer
    /// Whether `client_id` goes in the body even when the client authenticates with HTTP Basic, as
    /// the device authorization request requires (RFC 8628 §3.1).
    var alwaysSendsClientID = false

    /// POSTs `parameters` as `client` and returns the JSON object of a successful answer.
    ///
    /// - Parameters:
    ///   - parameters: The body parameters.
    ///   - client: The client that authenticates.
    ///   - transport: Sends the request.
    ///   - clock: Gives the time against which an HTTP-date `Retry-After` is read.
    /// - Returns: The decoded object.
    /// - Throws: As ``jsonObject(from:response:endpointName:now:)``; ``BearerError/Kind/insecureEndpoint``
    ///   and ``BearerError/Kind/network`` before any answer.
    func post(
        _ parameters: [FormParameter],
        as client: Client,
        using transport: some HTTPTransport,
        clock: WallClock
    ) async throws -> [String: JSONValue] {
        let response = try await send(parameters, as: client, using: transport)
        return try Self.jsonObject(from: response, endpointName: name, now: clock.now())
    }

    /// POSTs `parameters` as `client` and returns the raw answer, whatever its status.
    func send(
        _ parameters: [FormParameter],
        as client: Client,
        using transport: some HTTPTransport
    ) async throws -> TransportResponse {
        try server.checkSecure(url)
        return try await transport.sendReportingNetworkErrors(
            Self.request(
                url,
                parameters: parameters,
                client: client,
                server: server,
                alwaysSendingClientID: alwaysSendsClientID
            ),
            maximumBodySize: Self.maximumBodySize
        )
    }

    /// A POST of `parameters` to `url`, authenticated as `client`. This is the only place client
    /// credentials are added.
    ///
    /// - A client without a secret sends `client_id` in the body.
    /// - A client with a secret uses HTTP Basic (`client_secret_basic`, RFC 6749 §2.3.1, id and
    ///   secret form-encoded first) — except at Google, whose guides for installed apps and for
    ///   TV and limited-input devices send `client_id` and `client_secret` in the body
    ///   (`client_secret_post`).
    /// - With `alwaysSendingClientID`, `client_id` is in the body in every case (RFC 8628 §3.1).
    static func request(
        _ url: URL,
        parameters: [FormParameter],
        client: Client,
        server: AuthorizationServer,
        alwaysSendingClientID: Bool = false
    ) -> TransportRequest {
        var parameters = parameters.filter { $0.name != "client_id" && $0.name != "client_secret" }
        let basicSecret = server.isGoogle ? nil : client.secret
        if basicSecret == nil || alwaysSendingClientID {
            parameters.append(FormParameter("client_id", client.id))
        }
        if server.isGoogle, let secret = client.secret {
            parameters.append(FormParameter("client_secret", secret.value))
        }
        var request = TransportRequest(
            method: .post,
            url: url,
            headerFields: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: Data(FormEncoding.encode(parameters.map { ($0.name, $0.value) }).utf8)
        )
        if let basicSecret {
            let credentials = FormEncoding.encode(client.id) + ":" + FormEncoding.encode(basicSecret.value)
            request.headerFields["Authorization"] = "Basic " + Data(credentials.utf8).base64EncodedString()
        }
        return request
    }

    /// Describes a POST's parameters with secret values redacted.
    static func describe(_ parameters: [FormParameter]) -> String {
        parameters.map(\.description).joined(separator: "&")
    }

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

extension HTTPTransport {
    /// Sends `request`, turning a failure to get any response into a ``BearerError`` of kind
    /// ``BearerError/Kind/network``; cancellation and Bearer's own errors pass through.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - maximumBodySize: For an OAuth endpoint, the most bytes of answer to read; `nil` for a
    ///     resource server's answer, read whole.
    func sendReportingNetworkErrors(
        _ request: TransportRequest,
        maximumBodySize: Int? = nil
    ) async throws -> TransportResponse {
        do {
            guard let maximumBodySize else { return try await send(request) }
            guard let deadline = ExchangeDeadline.current else {
                return try await send(request, maximumBodySize: maximumBodySize)
            }
            return try await deadline.bounding(host: request.url.host ?? "the server") {
                try await send(request, maximumBodySize: maximumBodySize)
            }
        } catch let error as BearerError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            let host = request.url.host ?? "the server"
            throw BearerError.network(
                "No response from \(host): \(error). Check the connection and try again.",
                underlyingError: error
            )
        }
    }
}
