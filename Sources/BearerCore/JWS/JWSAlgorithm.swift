/// A JWS signature algorithm (RFC 7518 §3.1), as a token's `alg` header names it.
///
/// Bearer signs with ``es256`` and verifies ``es256``, ``rs256`` and ``ps256``: the algorithms
/// OpenID providers sign ID tokens with and FAPI 2.0 allows. Every other value a token names,
/// `none` and the HMAC algorithms (`HS256`, …) included, is refused before any key is looked at.
public struct JWSAlgorithm: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The `alg` value, such as `ES256`.
    public let rawValue: String

    /// Wraps an `alg` value.
    ///
    /// - Parameter rawValue: The value, compared exactly (RFC 7515 §4.1.1 names are case-sensitive).
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// ECDSA with P-256 and SHA-256 (RFC 7518 §3.4): signatures are `r‖s`, 64 bytes.
    public static let es256 = JWSAlgorithm(rawValue: "ES256")
    /// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3).
    public static let rs256 = JWSAlgorithm(rawValue: "RS256")
    /// RSASSA-PSS with SHA-256, MGF1 with SHA-256 and a 32-byte salt (RFC 7518 §3.5).
    public static let ps256 = JWSAlgorithm(rawValue: "PS256")

    /// The algorithms whose signatures Bearer checks.
    public static let verifiable: Set<JWSAlgorithm> = [.es256, .rs256, .ps256]

    /// The key type (`kty`, RFC 7518 §6.1) whose keys make this algorithm's signatures.
    var keyType: String? {
        switch self {
        case .es256: "EC"
        case .rs256, .ps256: "RSA"
        default: nil
        }
    }

    /// The `alg` value.
    public var description: String { rawValue }
}
