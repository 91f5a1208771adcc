#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Sending an authorized request and reading the resource server's challenge (RFC 6750 §3, RFC
// 9449 §7.1): one retry on `invalid_token`, a typed error for `insufficient_scope`.
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
        if rejectsToken(response), let retry = try await reauthorize() {
            response = try await sendToResource(retry, using: transport)
        }
        try checkScope(of: response)
        return response
    }

    /// Whether `response` is a `401` whose challenge says `invalid_token`: the challenge of
    /// `scheme` first (`DPoP` for a DPoP token), else the other one.
    static func rejectsToken(_ response: TransportResponse, scheme: String = "Bearer") -> Bool {
        response.status == 401
            && challenge(of: response, preferring: scheme)?.error == OAuthError.Code.invalidToken.rawValue
    }

    /// Throws ``OAuthError`` `insufficient_scope` for a `403` whose challenge names that error.
    static func checkScope(of response: TransportResponse, scheme: String = "Bearer") throws {
        guard response.status == 403, let challenge = challenge(of: response, preferring: scheme),
            challenge.error == OAuthError.Code.insufficientScope.rawValue
        else { return }
        throw OAuthError(
            code: .insufficientScope,
            errorDescription: challenge.errorDescription,
            statusCode: 403,
            requiredScopes: challenge.scopes,
            challenge: challenge
        )
    }

    /// Sends a request to a resource server, reading its answer whole; a failure to get any
    /// answer is ``BearerError/Kind/network``.
    static func sendToResource(
        _ request: TransportRequest,
        using transport: some HTTPTransport
    ) async throws -> TransportResponse {
        do {
            return try await transport.send(request)
        } catch {
            throw BearerError.reportingNoResponse(error, from: request.url.host)
        }
    }

    /// The challenge of `scheme` in `response`, else the one of the other scheme (`Bearer`, `DPoP`).
    private static func challenge(of response: TransportResponse, preferring scheme: String) -> BearerChallenge? {
        guard let header = response.headerFields["WWW-Authenticate"] else { return nil }
        let other = scheme.lowercased() == "dpop" ? "Bearer" : "DPoP"
        return BearerChallenge(header: header, scheme: scheme) ?? BearerChallenge(header: header, scheme: other)
    }
}
