public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension AuthSession {
    /// Authorizes and sends `request` with the session's transport.
    ///
    /// On `401` with `WWW-Authenticate: Bearer error="invalid_token"` the token is refreshed once
    /// (unless another task already replaced it) and the request retried once. A `403` with
    /// `error="insufficient_scope"` becomes an ``OAuthError`` with code
    /// ``OAuthError/Code/insufficientScope`` naming the scopes the server asked for.
    ///
    /// - Parameter request: The request.
    /// - Returns: The body and response of the last attempt.
    /// - Throws: As ``authorize(_:)``; ``BearerError/Kind/network`` when no response comes;
    ///   ``OAuthError`` for `insufficient_scope`.
    public func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await funnel {
            let (authorized, token) = try await self.authorizedRequest(request)
            return try await AuthorizedExchange.send(authorized, using: self.transport) {
                var retry = request
                retry.setBearerToken(try await self.freshAccessToken(rejecting: token))
                return retry
            }
        }
    }
}
