#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A request as ``HTTPTransport`` sends it: the method, the URL, the header fields and the body.
///
/// Bearer builds these for the token, revocation, device and metadata endpoints, and from a
/// `URLRequest` for ``AuthSession``'s `data(for:)`. `import Bearer` bridges them to `URLRequest`.
public struct TransportRequest: Sendable, Hashable {
    /// An HTTP method (RFC 9110 §9).
    public struct Method: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral {
        /// The method's name, e.g. `POST`.
        public let rawValue: String

        /// Creates a method from its name.
        ///
        /// - Parameter rawValue: The name, e.g. `GET`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Creates a method from its name.
        ///
        /// - Parameter value: The name, e.g. `GET`.
        public init(stringLiteral value: String) { self.rawValue = value }

        /// `GET`.
        public static let get: Method = "GET"
        /// `POST`.
        public static let post: Method = "POST"
    }

    /// The method.
    public var method: Method
    /// The URL.
    public var url: URL
    /// The header fields.
    public var headerFields: HTTPHeaderFields
    /// The body, if any.
    public var body: Data?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The method; `GET` by default.
    ///   - url: The URL.
    ///   - headerFields: The header fields.
    ///   - body: The body.
    public init(method: Method = .get, url: URL, headerFields: HTTPHeaderFields = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headerFields = headerFields
        self.body = body
    }

    /// Sets `Authorization: Bearer <token>` (RFC 6750 §2.1), replacing any previous value. An empty
    /// token authorizes nothing: it removes the header rather than send `Bearer ` alone.
    ///
    /// - Parameter token: The access token.
    @_spi(Bridge) public mutating func setBearerToken(_ token: AccessToken) {
        headerFields["Authorization"] = token.authorizationHeaderValue
    }
}
