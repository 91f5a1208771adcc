/// A private key that signs DPoP proofs (RFC 9449) with ES256: P-256 and SHA-256.
///
/// `import Bearer` gives ``DPoPKeySource`` implementations whose keys come from the platform
/// (CryptoKit on Apple platforms, the Secure Enclave where asked, OpenSSL's libcrypto on Linux). A
/// fleet whose keys live in a KMS or an HSM conforms its own signer: the session saves
/// ``record`` (which then names the key rather than holding it) with the grant, and gets the key
/// back from its source with ``DPoPKeySource/key(for:)``.
public protocol DPoPKey: Sendable {
    /// What the session saves with its grant to find this key again: its kind, its private part or
    /// a reference to it, and its public key.
    var record: DPoPKeyRecord { get }

    /// Signs `message` with ECDSA P-256 over SHA-256, as JWS ES256 does (RFC 7518 §3.4).
    ///
    /// - Parameter message: The bytes to sign: a proof's header and payload, base64url-encoded and
    ///   joined by `.`.
    /// - Returns: The signature as `r‖s`, 32 bytes each (64 bytes), not DER.
    /// - Throws: When the key cannot sign (a missing Secure Enclave key, an unreachable KMS).
    func signature(for message: [UInt8]) async throws -> [UInt8]
}

/// Makes the DPoP keys of new sign-ins and finds the key of a saved session again.
///
/// A session asks its source for a new key at each sign-in that uses DPoP, so each grant has its
/// own key, and asks for a saved grant's key with the ``DPoPKeyRecord`` saved beside its tokens.
public protocol DPoPKeySource: Sendable {
    /// A new key, for a new grant.
    ///
    /// - Returns: The key.
    /// - Throws: When no key can be made.
    func makeKey() async throws -> any DPoPKey

    /// The key `record` describes.
    ///
    /// - Parameter record: A record saved with a session.
    /// - Returns: The key.
    /// - Throws: ``BearerError/Kind/proofOfPossession`` when this source does not hold keys of the
    ///   record's kind, or the record's key cannot be rebuilt. The session is left as it is.
    func key(for record: DPoPKeyRecord) throws -> any DPoPKey
}
