/// What a session saves of its DPoP key, in the same record as the tokens the key is bound to, so
/// the two are written, read and removed together and can never diverge.
///
/// A record written by a platform key source holds the private key (as `0600` files and keychain
/// items hold the refresh token) or, for a Secure Enclave key, the enclave's encrypted reference
/// to it; a fleet's own source may hold only a name its KMS knows. Descriptions never show it.
public struct DPoPKeyRecord: Sendable, Hashable, Codable {
    /// Who can rebuild the key from ``privateKey``: `p256` (the raw private scalar, read by
    /// CryptoKit and libcrypto alike), `secure-enclave` (a Secure Enclave key's data
    /// representation), or a name a custom ``DPoPKeySource`` chose.
    public var kind: String
    /// The private key, or what names it, in the form ``kind`` says.
    public var privateKey: DPoPKeyMaterial
    /// The public key, kept so that the binding can be shown and checked without the private key.
    public var publicKey: DPoPPublicKey

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - kind: Who can rebuild the key.
    ///   - privateKey: The private key or its reference.
    ///   - publicKey: The public key.
    public init(kind: String, privateKey: DPoPKeyMaterial, publicKey: DPoPPublicKey) {
        self.kind = kind
        self.privateKey = privateKey
        self.publicKey = publicKey
    }

    /// The key's JWK thumbprint (RFC 7638): what its tokens are bound to.
    public var thumbprint: String { publicKey.thumbprint }

    private enum CodingKeys: String, CodingKey {
        case kind
        case privateKey = "private"
        case publicKey = "jwk"
    }
}

extension DPoPKeyRecord: CustomStringConvertible {
    /// The kind and the thumbprint; never the private key.
    public var description: String { "DPoPKeyRecord(\(kind), thumbprint: \(thumbprint))" }
}

/// A DPoP private key, or the reference that finds it, as a ``DPoPKeyRecord`` saves it; its
/// descriptions never show it.
public struct DPoPKeyMaterial: Credential {
    /// The key material, base64url-encoded, or a reference.
    public let value: String

    /// Wraps key material.
    ///
    /// - Parameter value: The material.
    public init(_ value: String) {
        self.value = value
    }

    /// Wraps raw key bytes, base64url-encoded.
    ///
    /// - Parameter bytes: The bytes.
    public init(bytes: some Sequence<UInt8>) {
        self.value = Base64URL.encode(bytes)
    }

    /// The bytes ``value`` encodes, or `nil` when it is not base64url.
    public var bytes: [UInt8]? { Base64URL.decode(value).map(Array.init) }
}
