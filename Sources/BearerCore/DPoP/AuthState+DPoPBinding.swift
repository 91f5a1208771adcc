#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension AuthState {
    /// This new grant's session, recording how the server bound it, from the answer to a request
    /// that carried a proof by `key` (or none when `key` is `nil`):
    ///
    /// - a `DPoP` token keeps the key with the grant; when the access token is a JWT whose
    ///   `cnf.jkt` is readable it must name that key (RFC 9449 §6.1);
    /// - a `Bearer` access token answering a proof: requests present it as a Bearer token, but the
    ///   grant keeps the key, since a public client's refresh token may still be bound to it (RFC
    ///   9449 §5), and refreshes go on proving it; where DPoP is required the grant is refused (and
    ///   revoked by the caller).
    ///
    /// - Throws: ``BearerError/Kind/proofOfPossession`` for a token bound to another key, or a
    ///   Bearer answer where DPoP is required.
    func bound(as answer: TokenResponse, to key: DPoPKeyRecord?, requiringDPoP: Bool) throws -> AuthState {
        var bound = self
        switch (answer.accessTokenType, key) {
        case (.dpop, let key?):
            if let accessToken, let thumbprint = Self.confirmationThumbprint(of: accessToken),
                thumbprint != key.thumbprint
            {
                throw BearerError.proofOfPossession(
                    "The server bound the new token to another key (its cnf.jkt is not this sign-in's key "
                        + "\(key.thumbprint)); the grant was refused and revoked.")
            }
            bound.accessTokenType = .dpop
            bound.dpopKey = key
        case (.bearer, _?) where requiringDPoP:
            throw BearerError.proofOfPossession(
                "The server answered the sign-in's DPoP proof with a Bearer token, and DPoP is required "
                    + "(DPoPSettings.use); the grant was refused and revoked. Check that the server supports DPoP.")
        case (.bearer, let key?):
            bound.accessTokenType = .bearer
            bound.dpopKey = key
        default:
            bound.accessTokenType = .bearer
            bound.dpopKey = nil
        }
        return bound
    }

    /// The `cnf.jkt` claim of an access token that is a JWT (RFC 9449 §6.1), or `nil` when the
    /// token is opaque or names none.
    static func confirmationThumbprint(of token: AccessToken) -> String? {
        let parts = token.value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(parts[1]),
            let claims = try? JSONDecoder().decodeRefusingDeepNesting([String: JSONValue].self, from: payload),
            case .object(let confirmation)? = claims["cnf"]
        else { return nil }
        return confirmation["jkt"]?.stringValue
    }
}
