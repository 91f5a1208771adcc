/// JWK thumbprints (RFC 7638): how a DPoP token's `cnf.jkt` and the `dpop_jkt` parameter name a
/// key (RFC 9449 §6.1, §10).
enum JWKThumbprint {
    /// The JSON of a JWK's required members as RFC 7638 §3.2 hashes it: names in lexicographic
    /// order, no whitespace, every value a string.
    static func canonicalJSON(requiredMembers members: [String: String]) -> String {
        let sorted = members.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
        return "{" + sorted.map { DPoPProof.quoted($0.key) + ":" + DPoPProof.quoted($0.value) }.joined(separator: ",")
            + "}"
    }

    /// The thumbprint: base64url of SHA-256 of ``canonicalJSON(requiredMembers:)``.
    static func of(requiredMembers members: [String: String]) -> String {
        Base64URL.encode(SHA256.hash(canonicalJSON(requiredMembers: members).utf8))
    }
}
