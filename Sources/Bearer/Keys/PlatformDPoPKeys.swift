public import BearerCore

/// DPoP keys (RFC 9449) from the platform: P-256 keys made and used by CryptoKit on Apple
/// platforms and by OpenSSL's libcrypto on Linux, and on Apple devices that have one, keys kept in
/// the Secure Enclave.
///
/// A software key's record holds its private key and is saved with the grant in the session's
/// store (a `0600` file, a keychain item, a sealed PostgreSQL row); any instance of a fleet that
/// reads the record signs with the grant's key. A Secure Enclave key never leaves the device: its
/// record holds only the enclave's encrypted reference to it, so such a session works only on the
/// device that made it, which is what a session kept in this device's keychain wants.
///
/// ```swift
/// var configuration = AuthSession.Configuration()
/// configuration.dpop = DPoPSettings(use: .required, keys: PlatformDPoPKeys(secureEnclave: .whenAvailable))
/// ```
public struct PlatformDPoPKeys: DPoPKeySource {
    /// Whether new keys are made in the Secure Enclave.
    public enum SecureEnclaveUse: Sendable, Hashable {
        /// Never: new keys are software keys, which a record can carry to another process or machine.
        case never
        /// Where the device has a Secure Enclave (Apple devices; never on Linux or in a simulator).
        case whenAvailable
    }

    /// Whether new keys are made in the Secure Enclave.
    public var secureEnclave: SecureEnclaveUse

    /// Creates a key source.
    ///
    /// - Parameter secureEnclave: Whether new keys are made in the Secure Enclave; ``SecureEnclaveUse/never``
    ///   by default, so that a session can move between processes and machines with its store.
    public init(secureEnclave: SecureEnclaveUse = .never) {
        self.secureEnclave = secureEnclave
    }

    /// A new P-256 key: in the Secure Enclave when asked for and present, else a software key.
    ///
    /// - Returns: The key.
    /// - Throws: ``BearerError/Kind/proofOfPossession`` when the platform cannot make one.
    public func makeKey() async throws -> any DPoPKey {
        if secureEnclave == .whenAvailable, let key = try SecureEnclaveDPoPKey.makeIfAvailable() {
            return key
        }
        return try SoftwareDPoPKey(P256Signer.generate())
    }

    /// The key a saved record describes.
    ///
    /// - Parameter record: The record saved with the session.
    /// - Returns: The key.
    /// - Throws: ``BearerError/Kind/proofOfPossession`` when the record is not a platform key's,
    ///   its key cannot be rebuilt, or it is a Secure Enclave key on a device without it.
    public func key(for record: DPoPKeyRecord) throws -> any DPoPKey {
        switch record.kind {
        case SoftwareDPoPKey.kind:
            return try SoftwareDPoPKey(record: record)
        case SecureEnclaveDPoPKey.kind:
            return try SecureEnclaveDPoPKey(record: record)
        default:
            throw BearerError.proofOfPossession(
                "The session's DPoP key is of kind \"\(record.kind)\", which PlatformDPoPKeys does not make; "
                    + "configure the DPoPKeySource that made it. The session was kept.")
        }
    }
}

extension PlatformDPoPKeys {
    /// The key source for sessions kept in `store`: new keys in the Secure Enclave where the store
    /// is this device's keychain (`KeychainSessionStore`, on Apple platforms) and the device has an enclave, software
    /// keys elsewhere, whose records can move with the store's sessions.
    ///
    /// - Parameter store: Where the sessions are saved.
    /// - Returns: The key source.
    public static func keeping(sessionsIn store: any SessionStore) -> PlatformDPoPKeys {
        #if canImport(Security)
            PlatformDPoPKeys(secureEnclave: store is KeychainSessionStore ? .whenAvailable : .never)
        #else
            PlatformDPoPKeys()
        #endif
    }
}
