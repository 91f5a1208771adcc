#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// A request is kept between the redirect's start and its end (a pending sign-in, an agent's
// archive); read back, it passes the checks it passed when it was made.
extension AuthorizationRequest: Codable {
    private enum CodingKeys: String, CodingKey {
        case server, client, redirectURI, scopes, state, nonce, pkce, additionalParameters, pushed, requestObject
    }

    /// Decodes a request and checks it as ``init(server:client:scopes:redirectURI:additionalParameters:)``
    /// makes it: an https (or allowed loopback) authorization endpoint, scopes within RFC 6749 §3.3
    /// (kept once each), no extra parameter that replaces a standard one, a `state` of at least 256
    /// random bits in base64url, and a `nonce` of the same kind exactly when `openid` is asked for.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a missing or mistyped field; ``BearerError`` when a check fails.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let server = try container.decode(AuthorizationServer.self, forKey: .server)
        let scopes = try container.decode([String].self, forKey: .scopes)
        let additionalParameters = try container.decode([String: String].self, forKey: .additionalParameters)
        try Self.check(server: server, scopes: scopes, additionalParameters: additionalParameters)
        let state = try container.decode(String.self, forKey: .state)
        let nonce = try container.decodeIfPresent(String.self, forKey: .nonce)
        guard Self.isRandomToken(state), nonce.map(Self.isRandomToken) ?? true,
            (nonce != nil) == scopes.contains("openid")
        else {
            throw BearerError.invalidConfiguration(
                "A saved authorization request has a state or nonce that Bearer did not make; sign in again.")
        }
        self.server = server
        self.client = try container.decode(Client.self, forKey: .client)
        self.redirectURI = try container.decode(URL.self, forKey: .redirectURI)
        self.scopes = Scopes.deduplicated(scopes)
        self.state = state
        self.nonce = nonce
        self.pkce = try container.decode(PKCE.self, forKey: .pkce)
        self.additionalParameters = additionalParameters
        self.pushed = try container.decodeIfPresent(PushedAuthorization.self, forKey: .pushed)
        self.requestObject = try container.decodeIfPresent(String.self, forKey: .requestObject)
    }

    /// Encodes the request, its PKCE verifier included: keep the encoding as secret as a token.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(server, forKey: .server)
        try container.encode(client, forKey: .client)
        try container.encode(redirectURI, forKey: .redirectURI)
        try container.encode(scopes, forKey: .scopes)
        try container.encode(state, forKey: .state)
        try container.encodeIfPresent(nonce, forKey: .nonce)
        try container.encode(pkce, forKey: .pkce)
        try container.encode(additionalParameters, forKey: .additionalParameters)
        try container.encodeIfPresent(pushed, forKey: .pushed)
        try container.encodeIfPresent(requestObject, forKey: .requestObject)
    }

    /// Whether `value` is what ``init(server:client:scopes:redirectURI:additionalParameters:)``
    /// makes for `state` and `nonce`: 32 random bytes in base64url.
    private static func isRandomToken(_ value: String) -> Bool {
        value.utf8.count >= 43 && Base64URL.decode(value) != nil
    }
}
