/// A server's public key, as a JWK Set publishes it (RFC 7517 §4): P-256 keys for ES256 and RSA
/// keys for RS256 and PS256.
public struct JSONWebKey: Sendable, Hashable {
    /// The key material.
    public enum Material: Sendable, Hashable {
        /// A P-256 point (`kty` `EC`, `crv` `P-256`, RFC 7518 §6.2.1), coordinates 32 bytes each,
        /// big-endian.
        case p256(x: [UInt8], y: [UInt8])
        /// An RSA public key (`kty` `RSA`, RFC 7518 §6.3.1): modulus and exponent, big-endian
        /// without leading zeros; the modulus is at least 2048 bits (RFC 7518 §3.3).
        case rsa(modulus: [UInt8], exponent: [UInt8])
    }

    /// The key material.
    public let material: Material
    /// `kid`: the name tokens use for the key.
    public let keyID: String?
    /// `use`: `sig` for a signing key, `enc` for an encryption key; `nil` when not said.
    public let use: String?
    /// `alg`: the one algorithm the key is for, when the set says.
    public let algorithm: JWSAlgorithm?
    /// `key_ops` (RFC 7517 §4.3), when the set lists them.
    public let operations: [String]?

    /// The smallest RSA modulus accepted, in bytes (2048 bits, RFC 7518 §3.3).
    static let minimumRSAModulusLength = 256
    /// The largest RSA modulus accepted, in bytes (8192 bits): larger keys only cost time.
    static let maximumRSAModulusLength = 1024

    /// Reads one key of a set.
    ///
    /// - Parameter members: The key's JSON members.
    /// - Returns: The key, or `nil` for a key Bearer does not use (another `kty` or curve, missing or
    ///   malformed members, a private part published by mistake), which RFC 7517 §5 says to ignore.
    init?(members: [String: JSONValue]) {
        // A published private key is a broken server: its key is never used.
        guard members["d"] == nil, members["p"] == nil else { return nil }
        switch members["kty"]?.stringValue {
        case "EC":
            guard members["crv"]?.stringValue == "P-256",
                let x = Self.bytes(members["x"]), x.count == 32,
                let y = Self.bytes(members["y"]), y.count == 32
            else { return nil }
            material = .p256(x: x, y: y)
        case "RSA":
            guard let modulus = Self.bytes(members["n"]).map(Self.trimmingLeadingZeros),
                (Self.minimumRSAModulusLength...Self.maximumRSAModulusLength).contains(modulus.count),
                let exponent = Self.bytes(members["e"]).map(Self.trimmingLeadingZeros),
                (1...8).contains(exponent.count)
            else { return nil }
            material = .rsa(modulus: modulus, exponent: exponent)
        default:
            return nil
        }
        if let kid = members["kid"], kid.stringValue == nil { return nil }
        keyID = members["kid"]?.stringValue
        use = members["use"]?.stringValue
        algorithm = members["alg"]?.stringValue.map(JWSAlgorithm.init(rawValue:))
        if case .array(let operations)? = members["key_ops"] {
            self.operations = operations.compactMap(\.stringValue)
        } else {
            operations = nil
        }
    }

    /// Creates a key from its parts.
    ///
    /// - Parameters:
    ///   - material: The key material.
    ///   - keyID: Its `kid`.
    ///   - use: Its `use`.
    ///   - algorithm: Its `alg`.
    public init(material: Material, keyID: String? = nil, use: String? = "sig", algorithm: JWSAlgorithm? = nil) {
        self.material = material
        self.keyID = keyID
        self.use = use
        self.algorithm = algorithm
        self.operations = nil
    }

    /// Whether the key may check `algorithm`'s signatures: its type is the algorithm's, it is not
    /// only for encryption, and any `alg` or `key_ops` it names allow it (RFC 7517 §4.2–4.4).
    func fits(_ algorithm: JWSAlgorithm) -> Bool {
        let type: String
        switch material {
        case .p256: type = "EC"
        case .rsa: type = "RSA"
        }
        guard algorithm.keyType == type else { return false }
        if let use, use != "sig" { return false }
        if let own = self.algorithm, own != algorithm { return false }
        if let operations, !operations.contains("verify") { return false }
        return true
    }

    private static func bytes(_ value: JSONValue?) -> [UInt8]? {
        guard let text = value?.stringValue, !text.contains("="), let data = Base64URL.decode(text) else {
            return nil
        }
        return Array(data)
    }

    private static func trimmingLeadingZeros(_ bytes: [UInt8]) -> [UInt8] {
        Array(bytes.drop { $0 == 0 })
    }
}
