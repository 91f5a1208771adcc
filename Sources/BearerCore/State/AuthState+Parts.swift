#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension AuthState {
    /// Creates a session from tokens obtained elsewhere (a server-side code exchange, another SDK,
    /// an app's own migration), checked as the token endpoint's answer would be: an access token
    /// in RFC 6750's `b64token` characters, a `Bearer` token type, a lifetime in seconds, and an
    /// ID token, when given, that passes OpenID Connect's checks for `server` and `client`.
    ///
    /// ```swift
    /// let state = try AuthState(
    ///     server: server, client: client, accessToken: exchanged.accessToken, expiresIn: 3600,
    ///     refreshToken: exchanged.refreshToken, idToken: exchanged.idToken, scopes: ["openid", "email"])
    /// let session = try await AuthSession.save(state, to: store)
    /// ```
    ///
    /// - Parameters:
    ///   - server: The server that issued the tokens.
    ///   - client: The client they were issued to.
    ///   - accessToken: The access token.
    ///   - tokenType: Its type, as the server named it (`Bearer`).
    ///   - expiresIn: Its lifetime in seconds from `clock`'s now; `nil` when unknown.
    ///   - refreshToken: The refresh token, if any.
    ///   - idToken: The ID token in its compact form, if any; its nonce is not checked.
    ///   - scopes: The scopes granted.
    ///   - clock: Gives the time of receipt, and the skew allowed when checking the ID token.
    /// - Throws: ``BearerError/Kind/invalidResponse`` for a token or type the token endpoint's
    ///   answer could not carry; ``BearerError/Kind/invalidIDToken`` when the ID token fails a
    ///   check; ``BearerError/Kind/invalidScope`` for a scope outside RFC 6749 §3.3.
    public init(
        server: AuthorizationServer,
        client: Client,
        accessToken: String,
        tokenType: String = "Bearer",
        expiresIn: TimeInterval? = nil,
        refreshToken: String? = nil,
        idToken: String? = nil,
        scopes: [String],
        clock: WallClock = .system
    ) throws {
        try Scopes.check(scopes)
        var answer: [String: JSONValue] = [
            "access_token": .string(accessToken),
            "token_type": .string(tokenType),
            "scope": .string(scopes.joined(separator: " ")),
        ]
        if let expiresIn { answer["expires_in"] = .number(expiresIn) }
        if let refreshToken { answer["refresh_token"] = .string(refreshToken) }
        if let idToken { answer["id_token"] = .string(idToken) }
        let response = try TokenResponse(json: answer)
        if let rejection = response.rejectedFields["refresh_token"] ?? response.rejectedFields["expires_in"] {
            throw rejection
        }
        try self.init(
            tokenResponse: response, server: server, client: client, requestedScopes: scopes, nonce: nil,
            clock: clock)
    }
}
