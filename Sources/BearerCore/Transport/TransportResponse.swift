#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// An answer as ``HTTPTransport`` returns it: the status, the header fields and the body.
public struct TransportResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// The header fields.
    public var headerFields: HTTPHeaderFields
    /// The body.
    public var body: Data

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: The HTTP status code.
    ///   - headerFields: The header fields.
    ///   - body: The body.
    public init(status: Int, headerFields: HTTPHeaderFields = [:], body: Data = Data()) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
    }
}
