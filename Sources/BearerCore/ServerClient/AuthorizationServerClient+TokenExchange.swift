#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The token endpoint's grants that make a token from another one: token exchange (RFC 8693) and
// the JWT-bearer grant (RFC 7523 §2.1).
extension AuthorizationServerClient {
    /// The grant type of the JWT-bearer grant (RFC 7523 §2.1).
    static let jwtBearerGrantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    /// Exchanges a token at `server`'s token endpoint (RFC 8693 §2), authenticating as `client`.
    ///
    /// ```swift
    /// let answer = try await AuthorizationServerClient(transport: transport).exchangeToken(
    ///     TokenExchangeRequest(subjectToken: subject, subjectTokenType: .accessToken, audiences: ["billing"]),
    ///     at: server, as: client)
    /// ```
    ///
    /// - Parameters:
    ///   - request: What to exchange, and for what.
    ///   - server: The server (a security token service); its token endpoint must be https, or
    ///     loopback http where it allows that.
    ///   - client: The client that authenticates.
    /// - Returns: The answer, whose issued token is of the requested type when one was asked for.
    /// - Throws: ``OAuthError`` when the server refuses (`invalid_request`, `invalid_target` for an
    ///   audience or resource it will not issue for, `invalid_grant` for a subject token it does
    ///   not accept, `unsupported_grant_type` when it does not exchange tokens);
    ///   ``BearerError/Kind/invalidConfiguration`` for a request that cannot be sent;
    ///   ``BearerError/Kind/invalidResponse`` for an answer that is not one, or whose token is of
    ///   another type than the one asked for (that token is revoked, best effort).
    public func exchangeToken(
        _ request: TokenExchangeRequest,
        at server: AuthorizationServer,
        as client: Client
    ) async throws -> TokenExchangeResponse {
        let response = try await postForm(
            try request.formParameters(), to: server.tokenEndpoint, server: server, client: client)
        let answer = try TokenExchangeResponse(
            json: Self.jsonObject(from: response, endpointName: "token endpoint", now: clock.now()))
        if let requested = request.requestedTokenType, answer.issuedTokenType != requested {
            await revokeIssuedTokens(of: answer, at: server, as: client)
            throw BearerError.invalidResponse(
                "The token exchange asked for \(requested) but the server issued \(answer.issuedTokenType.rawValue.printable) "
                    + "(RFC 8693 §2.2.1); it was refused and revoked where the server allows.")
        }
        return answer
    }

    /// The answer to a JWT-bearer grant (RFC 7523 §2.1) of `assertion` at `server`, as `client`.
    ///
    /// - Parameters:
    ///   - assertion: The JWT (an ID-JAG, for MCP's enterprise-managed authorization).
    ///   - scopes: The scopes wanted; empty for the server's default.
    ///   - resource: The protected resource the tokens are for (RFC 8707), when there is one.
    ///   - server: The server.
    ///   - client: The client that authenticates.
    ///   - proofKey: The DPoP key to bind the grant to, when the client's settings say so.
    func jwtBearerGrant(
        assertion: SecurityToken,
        scopes: [String],
        resource: ProtectedResource?,
        at server: AuthorizationServer,
        as client: Client,
        provingWith proofKey: (any DPoPKey)?
    ) async throws -> TokenResponse {
        var parameters = [
            FormParameter("grant_type", Self.jwtBearerGrantType), FormParameter("assertion", assertion.value),
        ]
        if !scopes.isEmpty { parameters.append(FormParameter("scope", scopes.joined(separator: " "))) }
        if let resource { parameters.append(FormParameter("resource", resource.description)) }
        return try await token(
            TokenRequest(server: server, parameters: parameters, client: client), provingWith: proofKey)
    }

    /// Revokes what a refused exchange answer issued, best effort: a token that nobody will use
    /// should not stay valid.
    func revokeIssuedTokens(of answer: TokenExchangeResponse, at server: AuthorizationServer, as client: Client) async {
        var issued = AuthState(server: server, client: client)
        if answer.issuedTokenType == .refreshToken {
            issued.refreshToken = RefreshToken(answer.issuedToken.value)
        } else if !answer.isNotAccessToken {
            issued.accessToken = AccessToken(answer.issuedToken.value)
        }
        issued.refreshToken = issued.refreshToken ?? answer.refreshToken
        _ = await revokeEveryToken(of: issued)
    }
}
