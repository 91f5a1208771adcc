import BearerCore

/// A P-256 DPoP key held in memory, whose record carries its private scalar, so any process that
/// reads the session's record signs with the same key. Its descriptions and mirror show only the
/// record's, which never show the private key.
struct SoftwareDPoPKey: DPoPKey, CustomStringConvertible {
    /// The record kind: the raw private scalar, which CryptoKit and libcrypto both read.
    static let kind = "p256"

    let signer: P256Signer
    let record: DPoPKeyRecord

    /// Wraps a key the platform made, with its private scalar.
    init(_ made: (signer: P256Signer, privateScalar: [UInt8])) {
        self.signer = made.signer
        self.record = DPoPKeyRecord(
            kind: Self.kind, privateKey: DPoPKeyMaterial(bytes: made.privateScalar), publicKey: made.signer.publicKey)
    }

    var description: String { "SoftwareDPoPKey(\(record.thumbprint))" }

    /// Rebuilds the key of `record`; the platform checks that its public key is the scalar's own.
    init(record: DPoPKeyRecord) throws {
        guard let scalar = record.privateKey.bytes, scalar.count == 32 else {
            throw BearerError.proofOfPossession(
                "The session's DPoP key record does not hold a 32-byte P-256 private key; the session was kept.")
        }
        self.signer = try P256Signer(privateScalar: scalar, publicKey: record.publicKey)
        self.record = record
    }

    func signature(for message: [UInt8]) async throws -> [UInt8] {
        try signer.signature(for: message)
    }
}
