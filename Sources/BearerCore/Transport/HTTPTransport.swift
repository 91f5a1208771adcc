#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Sends HTTP requests: the only way Bearer reaches the network.
///
/// `URLSessionTransport` (in `Bearer`) is the standard implementation; tests supply a fake. A
/// transport must not follow redirects on its own, so that a credential never follows a redirect
/// to another host.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response, whatever its status.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The response.
    /// - Throws: When no HTTP response arrives (network failure, cancellation).
    func send(_ request: TransportRequest) async throws -> TransportResponse

    /// Sends a request to an OAuth endpoint (token, revocation, device authorization, server
    /// metadata), whose answer is small, reading no more than `maximumBodySize` bytes of it.
    ///
    /// The default implementation calls ``send(_:)`` and refuses a larger body once it has been
    /// read; `URLSessionTransport` refuses it from its `Content-Length`, or stops reading at the
    /// limit, and gives up when the whole exchange takes longer than its deadline.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - maximumBodySize: The most bytes of body to accept.
    /// - Returns: The response, whatever its status.
    /// - Throws: ``BearerError/Kind/invalidResponse`` when the body is larger; otherwise as
    ///   ``send(_:)``.
    func send(_ request: TransportRequest, maximumBodySize: Int) async throws -> TransportResponse
}

extension HTTPTransport {
    /// Sends `request` with ``send(_:)`` and refuses a body larger than `maximumBodySize`.
    public func send(_ request: TransportRequest, maximumBodySize: Int) async throws -> TransportResponse {
        let response = try await send(request)
        guard response.body.count <= maximumBodySize else {
            throw ResponseLimit.tooLarge(request.url, size: Int64(response.body.count), limit: maximumBodySize)
        }
        return response
    }
}

/// The error for an answer larger than an OAuth endpoint sends.
@_spi(Bridge) public enum ResponseLimit {
    /// The answer from `url` of `size` bytes (or more than `limit` when unknown) is too large.
    @_spi(Bridge) public static func tooLarge(_ url: URL?, size: Int64?, limit: Int) -> BearerError {
        let host = url?.host ?? "the server"
        let amount = size.map { "\($0) bytes" } ?? "more than \(limit) bytes"
        return BearerError.invalidResponse(
            "\(host) answered with \(amount), far more than an OAuth response (at most \(limit) bytes are read); "
                + "check the endpoint URL."
        )
    }
}
