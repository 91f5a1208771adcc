#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A JWS's protected header (RFC 7515 §4), with what a verifier needs of it.
struct JWSHeader: Sendable, Hashable {
    /// `alg`: the algorithm the token claims.
    let algorithm: JWSAlgorithm
    /// `kid`: which of the issuer's keys signed it, if the token says.
    let keyID: String?
    /// `typ`: the token's media type, if given (`JWT`, `logout+jwt`, `dpop+jwt`).
    let type: String?
    /// The header members that name a key or a place to fetch one from (`jku`, `jwk`, `kid` aside:
    /// `x5u`, `x5c`): an issuer's tokens are checked against the issuer's published keys only.
    let keyReferences: [String]
    /// `crit` (RFC 7515 §4.1.11): extensions the token says must be understood.
    let critical: [String]

    /// The members that would point a verifier at a key the token itself chose.
    static let keyReferenceMembers = ["jku", "jwk", "x5u", "x5c"]

    /// Reads the header's JSON.
    ///
    /// - Throws: ``BearerError/Kind/invalidSignature`` when it is not a JSON object with a string `alg`.
    init(json: Data) throws {
        guard case .object(let members)? = try? JSONParser.parse(json) else {
            throw BearerError.invalidSignature("The signed token's header is not a JSON object (RFC 7515 §4).")
        }
        guard let algorithm = members["alg"]?.stringValue else {
            throw BearerError.invalidSignature("The signed token's header has no alg (RFC 7515 §4.1.1).")
        }
        if let kid = members["kid"], kid.stringValue == nil {
            throw BearerError.invalidSignature("The signed token's kid is not a string (RFC 7515 §4.1.4).")
        }
        if let typ = members["typ"], typ.stringValue == nil {
            throw BearerError.invalidSignature("The signed token's typ is not a string (RFC 7515 §4.1.9).")
        }
        var critical: [String] = []
        if let crit = members["crit"] {
            guard case .array(let names) = crit, !names.isEmpty else {
                throw BearerError.invalidSignature(
                    "The signed token's crit is not a non-empty list of names (RFC 7515 §4.1.11).")
            }
            critical = names.compactMap(\.stringValue)
        }
        self.algorithm = JWSAlgorithm(rawValue: algorithm)
        self.keyID = members["kid"]?.stringValue
        self.type = members["typ"]?.stringValue
        self.keyReferences = Self.keyReferenceMembers.filter { members[$0] != nil }
        self.critical = critical
    }
}
