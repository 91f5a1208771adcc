@_spi(Bridge) import BearerCore
public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension AuthSession: Authorizer {
    /// Returns `request` with `Authorization: Bearer`, refreshing first when the token is within
    /// the leeway of expiry; a DPoP session's request gets `Authorization: DPoP` and a new `DPoP`
    /// proof for its method and URL (RFC 9449 §7.1), which is good for this one request.
    ///
    /// - Parameter request: The request.
    /// - Returns: The authorized request, with every other setting of `request` kept.
    /// - Throws: ``BearerError`` when the URL may not receive a token, when the user must sign in
    ///   again, or when a refresh fails; an ``OAuthError`` the server reported.
    public func authorize(_ request: URLRequest) async throws -> URLRequest {
        try await funnel {
            var authorized = request
            let fields = try await self.authorizationHeaderFields(
                method: request.httpMethod ?? "GET", url: request.url)
            authorized.setValue(fields["Authorization"], forHTTPHeaderField: "Authorization")
            if let proof = fields["DPoP"] { authorized.setValue(proof, forHTTPHeaderField: "DPoP") }
            return authorized
        }
    }

    /// Authorizes and sends `request`'s method, URL, header fields and body with the session's
    /// transport (see ``AuthSession/data(for:)->_``).
    ///
    /// To send a request with settings of its own (a body stream, a cache policy), authorize it
    /// with ``authorize(_:)->URLRequest`` and send it yourself.
    ///
    /// - Parameter request: The request.
    /// - Returns: The body and response of the last attempt.
    /// - Throws: As ``authorize(_:)->URLRequest``; ``BearerError/Kind/network`` when no response
    ///   comes; ``OAuthError`` for `insufficient_scope`.
    public func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let sent = try funnelSync { try TransportRequest(request) }
        let response = try await data(for: sent)
        guard let http = HTTPURLResponse(response, url: sent.url) else {
            throw configuration.rewriteError(
                BearerError.invalidResponse("\(sent.url.host ?? "The server") sent an unreadable response."))
        }
        return (response.body, http)
    }

    private func funnelSync<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            throw configuration.rewriteError(error)
        }
    }
}

extension AuthSession {
    /// Keeps the `DPoP-Nonce` of an answer to a request the app sent itself, authorized with
    /// ``authorize(_:)->URLRequest``: see ``takeDPoPNonce(from:for:)``.
    ///
    /// ```swift
    /// var (data, response) = try await urlSession.data(for: try await session.authorize(request))
    /// if let answer = response as? HTTPURLResponse, await session.takeDPoPNonce(from: answer) {
    ///     (data, response) = try await urlSession.data(for: try await session.authorize(request))
    /// }
    /// ```
    ///
    /// - Parameter response: The answer.
    /// - Returns: Whether the answer asked for a new nonce, so the request is worth sending again.
    @discardableResult
    public func takeDPoPNonce(from response: HTTPURLResponse) -> Bool {
        guard let url = response.url else { return false }
        return takeDPoPNonce(from: TransportResponse(response, body: Data()), for: url)
    }
}
