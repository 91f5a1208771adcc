#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The signed JWT a `private_key_jwt` client authenticates with instead of a secret (RFC 7523
/// §2.2, OpenID Connect Core §9), sent as `client_assertion` with `client_assertion_type`
/// `urn:ietf:params:oauth:client-assertion-type:jwt-bearer` to the token, pushed authorization,
/// revocation and device authorization endpoints.
///
/// - Header: `alg` `ES256`, `typ` `JWT`, and `kid`, the key's JWK thumbprint (RFC 7638), which is
///   the `kid` of the key in ``publicKeySet(of:)``.
/// - Claims: `iss` and `sub`, the client ID; `aud`, the server's issuer identifier (as FAPI 2.0 and
///   RFC 7523bis ask, never an endpoint's URL, so that an assertion cannot be replayed at another
///   server's endpoint); `jti`, 128 random bits; `iat`; and `exp`, 60 seconds later.
public enum ClientAssertion {
    /// The `client_assertion_type` of a JWT assertion (RFC 7523 §2.2).
    static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// How long an assertion is valid: 60 seconds.
    static let lifetime: TimeInterval = 60

    /// The JWK Set of `key`'s public half, to register with the server (RFC 7591 `jwks`) or
    /// publish at the client's `jwks_uri`: one P-256 key, `use` `sig`, `alg` `ES256`, `kid` its
    /// thumbprint.
    ///
    /// - Parameter key: The public key.
    /// - Returns: The JWK Set's JSON.
    public static func publicKeySet(of key: DPoPPublicKey) -> String {
        let members = key.jwk.dropLast()
        return #"{"keys":["# + members + #","kid":""# + key.thumbprint + #"","use":"sig","alg":"ES256"}]}"#
    }

    /// An assertion by `client` for `server`, signed by `key`.
    ///
    /// - Parameters:
    ///   - client: The client.
    ///   - server: The server, whose issuer is the audience unless `audience` is given.
    ///   - audience: The endpoint URL named as the audience instead
    ///     (``ClientAssertionAudience/endpoint``); `nil` for the issuer.
    ///   - key: The ES256 key.
    ///   - now: The time of issue.
    ///   - identifier: The `jti`; random unless given.
    /// - Returns: The compact JWS.
    /// - Throws: ``BearerError/Kind/proofOfPossession`` when the key cannot sign.
    @_spi(Benchmarks) public static func signed(
        by client: Client, for server: AuthorizationServer, audience: String? = nil, with key: any DPoPKey,
        at now: Date,
        identifier: String = DPoPProof.randomIdentifier()
    ) async throws -> String {
        let header = Base64URL.encode(
            (#"{"alg":"ES256","typ":"JWT","kid":"# + DPoPProof.quoted(key.record.thumbprint) + "}").utf8)
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let clientID = DPoPProof.quoted(client.id)
        let payload =
            #"{"iss":"# + clientID + #","sub":"# + clientID + #","aud":"#
            + DPoPProof.quoted(audience ?? server.issuer.absoluteString) + #","jti":"# + DPoPProof.quoted(identifier)
            + #","iat":"# + String(issuedAt) + #","exp":"# + String(issuedAt + Int64(lifetime)) + "}"
        return try await JWSSigning.compact(
            encodedHeader: header, payload: payload, signedBy: key, purpose: "a client assertion")
    }
}
