#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// Sends an authorized request and reads the resource server's Bearer challenge (RFC 6750 §3):
/// one retry on `invalid_token`, a typed error for `insufficient_scope`.
enum AuthorizedExchange {
    /// Sends `authorized`; on `401` with `error="invalid_token"`, sends what `reauthorize` returns
    /// once (nothing when it returns `nil`).
    ///
    /// - Parameters:
    ///   - authorized: The authorized request.
    ///   - transport: Sends it.
    ///   - reauthorize: The request authorized with a new token, or `nil` when there is none.
    /// - Returns: The body and response of the last attempt.
    /// - Throws: ``BearerError/Kind/network`` when no response comes; ``OAuthError`` with code
    ///   ``OAuthError/Code/insufficientScope`` for a `403` naming that error.
    static func send(
        _ authorized: URLRequest,
        using transport: some HTTPTransport,
        reauthorize: @Sendable () async throws -> URLRequest?
    ) async throws -> (Data, HTTPURLResponse) {
        var (data, response) = try await transport.sendReportingNetworkErrors(authorized)
        if response.statusCode == 401, challenge(of: response)?.error == OAuthError.Code.invalidToken.rawValue,
            let retry = try await reauthorize()
        {
            (data, response) = try await transport.sendReportingNetworkErrors(retry)
        }
        if response.statusCode == 403, let challenge = challenge(of: response),
            challenge.error == OAuthError.Code.insufficientScope.rawValue
        {
            throw OAuthError(
                code: .insufficientScope,
                errorDescription: challenge.errorDescription,
                statusCode: 403,
                requiredScopes: challenge.scopes
            )
        }
        return (data, response)
    }

    private static func challenge(of response: HTTPURLResponse) -> BearerChallenge? {
        response.value(forHTTPHeaderField: "WWW-Authenticate").flatMap(BearerChallenge.init(header:))
    }
}

extension URLRequest {
    /// Sets `Authorization: Bearer <token>` (RFC 6750 §2.1), replacing any previous value. An empty
    /// token authorizes nothing: it removes the header rather than send `Bearer ` alone.
    ///
    /// - Parameter token: The access token.
    public mutating func setBearerToken(_ token: AccessToken) {
        setValue(token.value.isEmpty ? nil : "Bearer " + token.value, forHTTPHeaderField: "Authorization")
    }
}
