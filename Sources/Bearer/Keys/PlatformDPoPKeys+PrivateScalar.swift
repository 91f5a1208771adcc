public import BearerCore

extension PlatformDPoPKeys {
    /// The software key whose P-256 private scalar is `privateScalar` and whose public key is
    /// `publicKey`: a key read from a file, such as the tool's client key file.
    ///
    /// - Parameters:
    ///   - privateScalar: The private scalar, 32 bytes big-endian (a JWK's `d`).
    ///   - publicKey: The public key, checked by the platform to be the scalar's own.
    /// - Returns: The key.
    /// - Throws: ``BearerError/Kind/proofOfPossession`` for a scalar that is not 32 bytes or does
    ///   not match `publicKey`.
    @_spi(CommandLine) public func key(privateScalar: [UInt8], publicKey: DPoPPublicKey) throws -> any DPoPKey {
        try SoftwareDPoPKey(
            record: DPoPKeyRecord(
                kind: SoftwareDPoPKey.kind, privateKey: DPoPKeyMaterial(bytes: privateScalar), publicKey: publicKey))
    }
}
