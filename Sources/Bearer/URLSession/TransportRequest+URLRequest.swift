public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension URLRequest {
    /// Creates the `URLRequest` that sends `request`: its method, URL, header fields and body.
    ///
    /// - Parameter request: The request.
    public init(_ request: TransportRequest) {
        self.init(url: request.url)
        httpMethod = request.method.rawValue
        for field in request.headerFields { setValue(field.value, forHTTPHeaderField: field.name) }
        httpBody = request.body
    }
}

extension TransportRequest {
    /// Creates a request from a `URLRequest`'s method, URL, header fields and body. Its other
    /// settings (timeout, cache policy, body stream) are the transport's.
    ///
    /// - Parameter request: The `URLRequest`.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when it has no URL.
    public init(_ request: URLRequest) throws {
        guard let url = request.url else {
            throw BearerError.invalidConfiguration("The request has no URL, so no token was added.")
        }
        self.init(
            method: Method(rawValue: request.httpMethod ?? "GET"),
            url: url,
            headerFields: HTTPHeaderFields(request.allHTTPHeaderFields ?? [:]),
            body: request.httpBody
        )
    }
}

extension TransportResponse {
    /// Creates a response from what `URLSession` returned.
    ///
    /// - Parameters:
    ///   - response: The HTTP response.
    ///   - body: The body.
    public init(_ response: HTTPURLResponse, body: Data) {
        var fields = HTTPHeaderFields()
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String else { continue }
            fields[name] = value as? String ?? String(describing: value)
        }
        self.init(status: response.statusCode, headerFields: fields, body: body)
    }
}

extension HTTPURLResponse {
    /// Creates the `HTTPURLResponse` of a transport's answer to a request for `url`.
    ///
    /// - Parameters:
    ///   - response: The answer.
    ///   - url: The URL that was requested.
    public convenience init?(_ response: TransportResponse, url: URL) {
        let fields = Dictionary(response.headerFields.map { ($0.name, $0.value) }) { _, last in last }
        self.init(url: url, statusCode: response.status, httpVersion: "HTTP/1.1", headerFields: fields)
    }
}
