/// Requests and responses describe themselves without a secret: an `Authorization` header, a
/// cookie, a URL's query or user information, or a body (a token answer) never shows in `print`,
/// string interpolation, `debugDescription` or `dump`.
extension TransportRequest: RedactedDescription {
    /// The method, the URL without query, fragment or user information, the header field names
    /// (values of fields that carry credentials redacted) and the body's size.
    public var description: String {
        let body = body.map { "\($0.count) bytes" } ?? "none"
        return "TransportRequest(\(method.rawValue) \(url.forMessages), \(headerFields), body: \(body))"
    }
}

extension TransportResponse: RedactedDescription {
    /// The status, the header fields (values of fields that carry credentials redacted) and the
    /// body's size.
    public var description: String {
        "TransportResponse(\(status), \(headerFields), body: \(body.count) bytes)"
    }
}

extension HTTPHeaderFields: RedactedDescription {
    /// Each field as `name: value`, the value redacted for a field that carries credentials
    /// (`Authorization`, `Proxy-Authorization`, cookies, and any name with `token`, `secret` or
    /// `key` in it).
    public var description: String {
        let shown = map { field in
            Self.carriesCredentials(field.name) ? "\(field.name): <redacted>" : "\(field.name): \(field.value)"
        }
        return "[\(shown.joined(separator: ", "))]"
    }

    private static func carriesCredentials(_ name: String) -> Bool {
        let lowercased = name.lowercased()
        return ["authorization", "proxy-authorization", "cookie", "set-cookie"].contains(lowercased)
            || ["token", "secret", "key"].contains { lowercased.contains($0) }
    }
}
