public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension AuthSession {
    /// Authorizes and sends `request`.
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
        let (authorized, token) = try await authorizeReturningToken(request)
        var (data, response) = try await send(authorized)
        if response.statusCode == 401, challenge(of: response)?.error == OAuthError.Code.invalidToken.rawValue {
            let fresh = try await freshState(replacing: token)
            guard let freshToken = fresh.accessToken else { return (data, response) }
            var retry = request
            retry.setBearerToken(freshToken)
            (data, response) = try await send(retry)
        }
        if response.statusCode == 403, let challenge = challenge(of: response),
            challenge.error == OAuthError.Code.insufficientScope.rawValue
        {
            throw rewritten(
                OAuthError(
                    code: .insufficientScope,
                    errorDescription: challenge.errorDescription,
                    statusCode: 403,
                    requiredScopes: challenge.scopes
                )
            )
        }
        return (data, response)
    }

    private func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        do {
            return try await transport.sendReportingNetworkErrors(request)
        } catch {
            throw rewritten(error)
        }
    }

    private func challenge(of response: HTTPURLResponse) -> BearerChallenge? {
        response.value(forHTTPHeaderField: "WWW-Authenticate").flatMap(BearerChallenge.init(header:))
    }
}
