extension JSONWebKey {
    /// An RSA public key as PKCS #1 `RSAPublicKey` DER (RFC 8017 §A.1.1): `SEQUENCE { modulus
    /// INTEGER, publicExponent INTEGER }`, the form the Security framework's `SecKeyCreateWithData`
    /// reads for RSA public keys.
    ///
    /// - Parameters:
    ///   - modulus: The modulus, big-endian.
    ///   - exponent: The public exponent, big-endian.
    /// - Returns: The DER bytes.
    @_spi(Bridge) public static func rsaPublicKeyDER(modulus: [UInt8], exponent: [UInt8]) -> [UInt8] {
        let body = derInteger(modulus) + derInteger(exponent)
        return [0x30] + derLength(body.count) + body
    }

    /// A DER INTEGER (X.690 §8.3) holding the unsigned big-endian `magnitude`.
    private static func derInteger(_ magnitude: [UInt8]) -> [UInt8] {
        var content = Array(magnitude.drop { $0 == 0 })
        if content.isEmpty || content[0] & 0x80 != 0 { content.insert(0, at: 0) }
        return [0x02] + derLength(content.count) + content
    }

    /// A DER length (X.690 §8.1.3): one byte below 128, else the count of length bytes, then them.
    private static func derLength(_ length: Int) -> [UInt8] {
        guard length >= 0x80 else { return [UInt8(length)] }
        var bytes: [UInt8] = []
        var rest = length
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }
}
