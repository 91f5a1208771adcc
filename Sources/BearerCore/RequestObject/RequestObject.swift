#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The signed request object of an authorization request (JAR, RFC 9101 §4): every parameter of
/// ``AuthorizationRequest/queryParameters`` as a string claim, with `iss` (the client ID), `aud`
/// (the server's issuer identifier), `iat`, `nbf`, `exp` (``lifetime`` later) and a random `jti`,
/// signed ES256 with the client's key under the `typ` RFC 9101 §10.8 registers.
enum RequestObject {
    /// The `typ` header of a request object (RFC 9101 §10.8).
    static let type = "oauth-authz-req+jwt"
    /// How long a request object is valid: ten minutes, within FAPI 2.0's hour, long enough for a
    /// browser that opens the request a while after it was made.
    static let lifetime: TimeInterval = 600

    /// `request` as a request object signed by `key`.
    ///
    /// - Parameters:
    ///   - request: The authorization request.
    ///   - key: The client's key.
    ///   - now: The time of issue.
    ///   - identifier: The `jti`; random unless given.
    /// - Returns: The compact JWS.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when an extra parameter of the request
    ///   is named as one of the claims Bearer sets; ``BearerError/Kind/proofOfPossession`` when the
    ///   key cannot sign.
    static func signed(
        _ request: AuthorizationRequest, with key: any DPoPKey, at now: Date,
        identifier: String = DPoPProof.randomIdentifier()
    ) async throws -> String {
        let header = Base64URL.encode(
            (#"{"alg":"ES256","typ":""# + type + #"","kid":"# + DPoPProof.quoted(key.record.thumbprint) + "}").utf8)
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        var members = [
            ("iss", DPoPProof.quoted(request.client.id)),
            ("aud", DPoPProof.quoted(request.server.issuer.absoluteString)),
            ("jti", DPoPProof.quoted(identifier)),
            ("iat", String(issuedAt)),
            ("nbf", String(issuedAt)),
            ("exp", String(issuedAt + Int64(lifetime))),
        ]
        let registered = Set(members.map(\.0))
        if let clash = request.additionalParameters.keys.sorted().first(where: registered.contains) {
            throw BearerError.invalidConfiguration(
                "The extra parameter \"\(clash)\" would replace a claim of the signed request object (RFC 9101); "
                    + "remove it. Nothing was sent.")
        }
        for parameter in request.queryParameters {
            members.append((parameter.name, DPoPProof.quoted(parameter.value)))
        }
        let payload = "{" + members.map { DPoPProof.quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
        return try await JWSSigning.compact(
            encodedHeader: header, payload: payload, signedBy: key, purpose: "a request object")
    }
}
