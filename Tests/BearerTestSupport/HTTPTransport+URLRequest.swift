public import Bearer
public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension HTTPTransport {
    /// Sends a `URLRequest` through the transport, as the tests' own requests to the server do.
    ///
    /// - Parameter request: The request.
    /// - Returns: The body and the response.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let sent = try TransportRequest(request)
        let response = try await send(sent)
        guard let http = HTTPURLResponse(response, url: sent.url) else { throw URLError(.badServerResponse) }
        return (response.body, http)
    }
}
