/// The public half of a P-256 DPoP key: what a proof's `jwk` header carries (RFC 9449 §4.2) and
/// what a DPoP token is bound to, through its thumbprint.
public struct DPoPPublicKey: Sendable, Hashable {
    /// Whether two keys are the same point.
    public static func == (lhs: DPoPPublicKey, rhs: DPoPPublicKey) -> Bool { lhs.x == rhs.x && lhs.y == rhs.y }

    /// Hashes the point.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(x)
        hasher.combine(y)
    }

    /// The point's x coordinate, 32 bytes big-endian.
    public let x: [UInt8]
    /// The point's y coordinate, 32 bytes big-endian.
    public let y: [UInt8]
    /// The key as a JWK (RFC 7517) with only its required members, in the order and spelling of
    /// RFC 7638 §3.2: `{"crv":"P-256","kty":"EC","x":…,"y":…}`.
    let jwk: String
    /// The base64url header of every proof this key signs: `typ`, `alg` and `jwk`.
    let proofHeader: String

    /// Creates the key from its point's coordinates.
    ///
    /// - Parameters:
    ///   - x: The x coordinate, 32 bytes.
    ///   - y: The y coordinate, 32 bytes.
    /// - Throws: ``BearerError/Kind/proofOfPossession`` when a coordinate is not 32 bytes.
    public init(x: [UInt8], y: [UInt8]) throws {
        guard x.count == 32, y.count == 32 else {
            throw BearerError.proofOfPossession(
                "A P-256 public key's coordinates are 32 bytes each; these are \(x.count) and \(y.count).")
        }
        self.x = x
        self.y = y
        self.jwk = JWKThumbprint.canonicalJSON(requiredMembers: [
            "crv": "P-256", "kty": "EC", "x": Base64URL.encode(x), "y": Base64URL.encode(y),
        ])
        self.proofHeader = Base64URL.encode((#"{"typ":"dpop+jwt","alg":"ES256","jwk":"# + jwk + "}").utf8)
    }

    /// Creates the key from its uncompressed point, `04‖x‖y` (SEC 1 §2.3.3, CryptoKit's
    /// `x963Representation`).
    ///
    /// - Parameter point: The 65-byte point.
    /// - Throws: ``BearerError/Kind/proofOfPossession`` for anything else.
    public init(uncompressedPoint point: some Collection<UInt8>) throws {
        let bytes = Array(point)
        guard bytes.count == 65, bytes[0] == 4 else {
            throw BearerError.proofOfPossession("A P-256 public key's uncompressed point is 65 bytes starting with 04.")
        }
        try self.init(x: Array(bytes[1...32]), y: Array(bytes[33...64]))
    }

    /// The uncompressed point, `04‖x‖y`.
    public var uncompressedPoint: [UInt8] { [4] + x + y }

    /// The key's JWK thumbprint (RFC 7638): base64url of SHA-256 of its required members. A DPoP token's
    /// `cnf.jkt` and the `dpop_jkt` parameter name a key this way (RFC 9449 §6, §10).
    public var thumbprint: String { Base64URL.encode(SHA256.hash(jwk.utf8)) }
}

extension DPoPPublicKey: Codable {
    private enum CodingKeys: String, CodingKey {
        case kty, crv, x, y
    }

    /// Decodes a P-256 JWK.
    ///
    /// - Throws: When it is not an EC P-256 key with 32-byte coordinates.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard try container.decode(String.self, forKey: .kty) == "EC",
            try container.decode(String.self, forKey: .crv) == "P-256",
            let x = Base64URL.decode(try container.decode(String.self, forKey: .x)),
            let y = Base64URL.decode(try container.decode(String.self, forKey: .y))
        else {
            throw BearerError.proofOfPossession("The saved DPoP public key is not a P-256 JWK.")
        }
        try self.init(x: Array(x), y: Array(y))
    }

    /// Encodes the key as a P-256 JWK.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("EC", forKey: .kty)
        try container.encode("P-256", forKey: .crv)
        try container.encode(Base64URL.encode(x), forKey: .x)
        try container.encode(Base64URL.encode(y), forKey: .y)
    }
}
