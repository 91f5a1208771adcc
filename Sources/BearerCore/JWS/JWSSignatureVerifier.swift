/// Checks JWS signatures with the platform's cryptography.
///
/// `import Bearer` gives `PlatformSignatureVerifier`: CryptoKit and the Security framework on Apple
/// platforms, OpenSSL's libcrypto on Linux. Bearer decides which key and algorithm a token may use
/// (see ``JWSAlgorithm``); a verifier only answers whether the signature is the key's.
public protocol JWSSignatureVerifier: Sendable {
    /// Whether `signature` is `key`'s signature of `message` under `algorithm`.
    ///
    /// - Parameters:
    ///   - signature: The signature as a JWS carries it: `r‖s` for ES256 (RFC 7518 §3.4), the
    ///     RSA signature's bytes for RS256 and PS256.
    ///   - message: The signed bytes: the token's header and payload segments joined by `.`.
    ///   - algorithm: One of ``JWSAlgorithm/verifiable``.
    ///   - key: The key, whose type fits `algorithm`.
    /// - Returns: `true` only for a valid signature.
    /// - Throws: When the platform cannot use the key or the algorithm.
    func isValidSignature(
        _ signature: [UInt8], of message: [UInt8], by algorithm: JWSAlgorithm, with key: JSONWebKey
    ) throws -> Bool
}
