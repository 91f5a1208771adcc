#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Sending an authorized request and reading the resource server's Bearer challenge (RFC 6750 §3):
// one retry on `invalid_token`, a typed error for `insufficient_scope`.
extension AuthSession {
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
    @_spi(Bridge) public static func sendAuthorized(
        _ authorized: TransportRequest,
        using transport: some HTTPTransport,
        reauthorize: @Sendable () async throws -> TransportRequest?
    ) async throws -> TransportResponse {
        var response = try await sendToResource(authorized, using: transport)
        if response.status == 401, challenge(of: response)?.error == OAuthError.Code.invalidToken.rawValue,
            let retry = try await reauthorize()
        {
            response = try await sendToResource(retry, using: transport)
        }
        if response.status == 403, let challenge = challenge(of: response),
            challenge.error == OAuthError.Code.insufficientScope.rawValue
        {
            throw OAuthError(
                code: .insufficientScope,
                errorDescription: challenge.errorDescription,
                statusCode: 403,
                requiredScopes: challenge.scopes,
                challenge: challenge
            )
        }
        return response
    }

    /// Sends a request to a resource server, reading its answer whole; a failure to get any
    /// answer is ``BearerError/Kind/network``.
    private static func sendToResource(
        _ request: TransportRequest,
        using transport: some HTTPTransport
    ) async throws -> TransportResponse {
        do {
            return try await transport.send(request)
        } catch {
            throw BearerError.reportingNoResponse(error, from: request.url.host)
        }
    }

    private static func challenge(of response: TransportResponse) -> BearerChallenge? {
        response.headerFields["WWW-Authenticate"].flatMap(BearerChallenge.init(header:))
    }
}
