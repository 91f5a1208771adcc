/// Requests and responses describe themselves without a secret: a credential, a cookie, a
/// redirect's code, a URL's query or user information, or a body (a token answer) never shows in
/// `print`, string interpolation, `debugDescription` or `dump`.
extension TransportRequest: RedactedDescription {
    /// The method, the URL without query, fragment or user information, the header fields (see
    /// ``HTTPHeaderFields/description``) and the body's size.
    public var description: String {
        let body = body.map { "\($0.count) bytes" } ?? "none"
        return "TransportRequest(\(method.rawValue) \(url.forMessages), \(headerFields), body: \(body))"
    }
}

extension TransportResponse: RedactedDescription {
    /// The status, the header fields (see ``HTTPHeaderFields/description``) and the body's size.
    public var description: String {
        "TransportResponse(\(status), \(headerFields), body: \(body.count) bytes)"
    }
}

extension HTTPHeaderFields: RedactedDescription {
    /// Each field as `name: value`. Only the values of fields that describe the exchange itself
    /// (`Content-Type`, `Content-Length`, `Cache-Control`, `Retry-After`, `WWW-Authenticate`, …)
    /// are shown; any other value says `<redacted>`, as it may carry a credential, a cookie or a
    /// URL with a code in it (`Location`, `Referer`).
    public var description: String {
        let shown = map { field in
            Self.describesExchange(field.name) ? "\(field.name): \(field.value)" : "\(field.name): <redacted>"
        }
        return "[\(shown.joined(separator: ", "))]"
    }

    /// Fields whose values hold no secret (RFC 9110 and RFC 9111 fields about the message).
    private static let exchangeFields: Set<String> = [
        "accept", "accept-encoding", "accept-language", "age", "cache-control", "connection", "content-encoding",
        "content-language", "content-length", "content-type", "date", "expires", "pragma", "retry-after",
        "server", "transfer-encoding", "user-agent", "vary", "www-authenticate",
    ]

    private static func describesExchange(_ name: String) -> Bool {
        exchangeFields.contains(name.lowercased())
    }
}
