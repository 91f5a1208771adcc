@_spi(Internals) public import BearerCore

/// Checks the signatures of servers' tokens (ID tokens) with the platform's cryptography: CryptoKit
/// for ES256 and the Security framework for RS256 and PS256 on Apple platforms, OpenSSL's
/// libcrypto for all three on Linux.
///
/// The keys imported are kept (up to 32, for the process), so checking many tokens signed by a server's
/// current key costs only the signature check.
///
/// ```swift
/// var configuration = AuthSession.Configuration()
/// configuration.idTokenSignatures.requirement = .required
/// configuration.idTokenSignatures.verifier = PlatformSignatureVerifier()
/// ```
public struct PlatformSignatureVerifier: JWSSignatureVerifier {
    /// The most imported keys kept.
    static let keptKeyCount = 32

    /// The keys imported, shared by every verifier of the process.
    private static let imported = ImportedKeys()

    /// Creates a verifier.
    public init() {}

    /// Whether `signature` is `key`'s signature of `message` under `algorithm`.
    ///
    /// - Parameters:
    ///   - signature: `r‖s` (64 bytes) for ES256, the RSA signature (as long as the modulus) for
    ///     RS256 and PS256.
    ///   - message: The signed bytes.
    ///   - algorithm: ES256, RS256 or PS256.
    ///   - key: The key, of the algorithm's type.
    /// - Returns: Whether the signature is valid; `false` for a signature of the wrong length.
    /// - Throws: ``BearerError/Kind/invalidSignature`` when the key's type does not fit the
    ///   algorithm, the algorithm is not one of these three, or the platform refuses the key.
    public func isValidSignature(
        _ signature: [UInt8], of message: [UInt8], by algorithm: JWSAlgorithm, with key: JSONWebKey
    ) throws -> Bool {
        let padding: VerifyingKey.Padding?
        switch (algorithm, key.material) {
        case (.es256, .p256):
            guard signature.count == 64 else { return false }
            padding = nil
        case (.rs256, .rsa(let modulus, _)), (.ps256, .rsa(let modulus, _)):
            guard signature.count == modulus.count else { return false }
            padding = algorithm == .ps256 ? .pss : .pkcs1
        default:
            throw BearerError.invalidSignature(
                "PlatformSignatureVerifier checks ES256 with P-256 keys and RS256 or PS256 with RSA keys, not "
                    + "\(algorithm) with this key.")
        }
        return try Self.imported.key(for: key.material).isValidSignature(signature, of: message, padding: padding)
    }
}

/// The keys a verifier has imported into the platform, most recently used last.
private final class ImportedKeys: Sendable {
    private let lock = Lock()
    nonisolated(unsafe) private var keys: [(material: JSONWebKey.Material, key: VerifyingKey)] = []

    /// The platform's key for `material`, imported once.
    func key(for material: JSONWebKey.Material) throws -> VerifyingKey {
        if let kept = lock.withLock({ keys.first { $0.material == material }?.key }) { return kept }
        let key = try VerifyingKey(material)
        lock.withLock {
            keys.removeAll { $0.material == material }
            keys.append((material, key))
            if keys.count > PlatformSignatureVerifier.keptKeyCount { keys.removeFirst() }
        }
        return key
    }
}
