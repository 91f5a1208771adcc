/// The checks every signed token from a server passes before anything in it is trusted
/// (RFC 7515 §5.2, RFC 8725 §3.1–3.2): an algorithm from the allowed list, no key of the token's own
/// choosing, no critical extension Bearer does not understand, and a valid signature by one of the
/// issuer's published keys that fits the algorithm.
struct JWSVerification: Sendable {
    /// The algorithms accepted; a subset of ``JWSAlgorithm/verifiable``.
    let algorithms: Set<JWSAlgorithm>
    /// Checks signatures.
    let verifier: any JWSSignatureVerifier

    /// Creates the checks.
    init(algorithms: Set<JWSAlgorithm> = JWSAlgorithm.verifiable, verifier: any JWSSignatureVerifier) {
        self.algorithms = algorithms.intersection(JWSAlgorithm.verifiable)
        self.verifier = verifier
    }

    /// Checks `token` against the issuer's keys.
    ///
    /// - Parameters:
    ///   - token: The token, split but unchecked.
    ///   - what: What the token is, for errors ("The ID token").
    ///   - keys: The issuer's key set; called again with `true` once when no key fits the token's
    ///     `kid`, for a set fetched anew (the cache decides whether it may be).
    /// - Returns: The key that signed it.
    /// - Throws: ``BearerError/Kind/invalidSignature`` naming the failed check; the key set's error.
    func check(
        _ token: CompactJWS,
        what: String,
        keys: (_ refetchingForUnknownKey: Bool) async throws -> JSONWebKeySet
    ) async throws -> JSONWebKey {
        let algorithm = token.header.algorithm
        try checkHeader(token.header, what: what)
        var candidates = try await keys(false).candidates(for: algorithm, keyID: token.header.keyID)
        if candidates.isEmpty {
            candidates = try await keys(true).candidates(for: algorithm, keyID: token.header.keyID)
        }
        guard !candidates.isEmpty else {
            let named = token.header.keyID.map { "kid \"\(String($0.printable.prefix(64)))\"" } ?? "no kid"
            throw BearerError.invalidSignature(
                "\(what) is signed with \(algorithm) by a key (\(named)) that is not among the server's published "
                    + "keys for that algorithm, even after fetching them again; it was refused. If the server has "
                    + "just rotated its keys, try again in a minute.")
        }
        for key in candidates {
            let valid: Bool
            do {
                valid = try verifier.isValidSignature(
                    token.signature, of: token.signingInput, by: algorithm, with: key)
            } catch {
                throw BearerError.invalidSignature(
                    "The platform could not check \(what)'s \(algorithm) signature with the server's key; it was "
                        + "refused.", underlyingError: error)
            }
            if valid { return key }
        }
        throw BearerError.invalidSignature(
            "\(what)'s \(algorithm) signature is not valid for the server's key; it was refused and nothing in it "
                + "was trusted.")
    }

    /// Refuses an algorithm outside the list, a key the token names itself, and critical extensions.
    private func checkHeader(_ header: JWSHeader, what: String) throws {
        let algorithm = header.algorithm
        guard algorithms.contains(algorithm) else {
            let allowed = algorithms.map(\.rawValue).sorted().joined(separator: ", ")
            let shown = String(algorithm.rawValue.printable.prefix(32))
            if algorithm.rawValue.lowercased() == "none" {
                throw BearerError.invalidSignature(
                    "\(what) is unsigned (alg \"\(shown)\"); Bearer accepts only signed tokens (\(allowed)).")
            }
            if algorithm.rawValue.uppercased().hasPrefix("HS") {
                throw BearerError.invalidSignature(
                    "\(what) claims the HMAC algorithm \(shown), which would take the server's public key as a "
                        + "shared secret (RFC 8725 §2.1); only \(allowed) are accepted.")
            }
            throw BearerError.invalidSignature(
                "\(what) is signed with \(shown), which is not among the accepted algorithms (\(allowed)).")
        }
        if let member = header.keyReferences.first {
            throw BearerError.invalidSignature(
                "\(what) names its own key (\(member)); it is checked only against the server's published keys "
                    + "(RFC 8725 §3.10), so it was refused.")
        }
        if let extensionName = header.critical.first {
            throw BearerError.invalidSignature(
                "\(what) requires the extension \"\(String(extensionName.printable.prefix(64)))\", which Bearer "
                    + "does not understand (RFC 7515 §4.1.11).")
        }
    }
}
