import Bearer
import Foundation

@_spi(Testing) @testable import BearerCore

/// An issuer of the tests: a P-256 key made by the platform for each test, its JWK Set, and ID
/// tokens it signs (ES256) with any header and claims, hostile ones included.
struct TestIssuer {
    let key: any DPoPKey
    let keyID: String

    static func make(keyID: String = "key-1") async throws -> TestIssuer {
        TestIssuer(key: try await PlatformDPoPKeys().makeKey(), keyID: keyID)
    }

    /// The public key as a JWK.
    var jwk: String {
        let publicKey = key.record.publicKey
        return
            #"{"kty":"EC","crv":"P-256","use":"sig","alg":"ES256","kid":"\#(keyID)","x":"\#(Base64URL.encode(publicKey.x))","y":"\#(Base64URL.encode(publicKey.y))"}"#
    }

    /// A JWK Set of this issuer's key and `others`.
    func keySet(adding others: [String] = []) -> String {
        #"{"keys":[\#(([jwk] + others).joined(separator: ","))]}"#
    }

    /// `claims` signed by this issuer's key under `header` (by default ES256 with its `kid`).
    func sign(_ claims: [String: JSONValue], header: [String: JSONValue]? = nil) async throws -> String {
        let header = header ?? ["alg": "ES256", "kid": .string(keyID), "typ": "JWT"]
        return try await JWSSigning.compact(
            encodedHeader: Base64URL.encode(try Self.json(header).utf8), payload: try Self.json(claims),
            signedBy: key, purpose: "a test token")
    }

    /// An ID token for `request` from `issuer` (the request's server by default).
    func idToken(
        for request: AuthorizationRequest,
        issuedAt: Date = Fixtures.epoch,
        changing changes: [String: JSONValue?] = [:],
        header: [String: JSONValue]? = nil
    ) async throws -> String {
        var claims: [String: JSONValue] = [
            "iss": .string(request.server.issuer.absoluteString), "sub": "user-1", "aud": .string(request.client.id),
            "iat": .number(issuedAt.timeIntervalSince1970), "exp": .number(issuedAt.timeIntervalSince1970 + 3600),
            "email": "user@example.com",
        ]
        if let nonce = request.nonce { claims["nonce"] = .string(nonce) }
        for (name, value) in changes { claims[name] = value }
        return try await sign(claims, header: header)
    }

    static func json(_ value: [String: JSONValue]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
