public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Sends HTTP requests: the only way Bearer reaches the network.
///
/// ``URLSessionTransport`` is the standard implementation; tests supply a fake. A transport must not
/// follow redirects on its own, so that a credential never follows a redirect to another host.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the body and response.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The response body and the HTTP response, whatever its status.
    /// - Throws: When no HTTP response arrives (network failure, cancellation).
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}
