import Bearer
import Foundation
import Testing

@_spi(Bridge) @_spi(Testing) @testable import BearerCore

/// The platform's checks of ES256, RS256 and PS256 signatures, against RFC 7515's published
/// examples and a PS256 token made by Python's `cryptography` with a key made for this test.
@Suite("PlatformSignatureVerifier: RFC 7515's examples and PS256")
struct PlatformSignatureVerifierTests {
    /// RFC 7515 §A.2: the RSA key's modulus (the exponent is 65537).
    static let rfcModulus =
        "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-"
        + "pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2C"
        + "apHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9g"
        + "b54h4FRWyuXpoQ"
    /// RFC 7515 §A.2's JWS.
    static let rfcRS256 =
        "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0"
        + "cnVlfQ.cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9u"
        + "JdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383L"
        + "cOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtV"
        + "rBp0igcN_IoypGlUPQGe77Rw"
    /// RFC 7515 §A.3: the P-256 key and the JWS.
    static let rfcX = "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"
    static let rfcY = "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"
    static let rfcES256 =
        "eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0"
        + "cnVlfQ.DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"
    /// A 2048-bit RSA key's modulus and a PS256 token it signed (Python `cryptography`, MGF1-SHA-256,
    /// 32-byte salt); its private key was discarded.
    static let psModulus =
        "kQeU91ljpLk3erbmh9ndQc1Xn8aM4WtdCGkNAk5PzNiwFVXQxlX6vqdMBxMOBiXLaQQTWeQbLNhEWuqNUulCapZMSlpUrZQqJtu4TfVucpKME"
        + "97Z18WKAigtQGqPF2d8YS3JF9gq3iD-jxlyL7pAIsSDrU08Ll_Oj-mQu0Imbj04vMe0bdhve3vIn1r5BvCjb9cNNtYz0YtNVlcD73sktfhVfk"
        + "wTcBVa1O3_8n0FeUhCLrAVbLnxJSVFmw1aZNdfiSxFhz78ujkF986v2YAZWQ6LvfByUjD5ph4lPNLwEnUZ0JPkVJsit28aVYa9gNpRAdQ-pRE"
        + "qHMVm49cu9iz5EQ"
    static let psToken =
        "eyJhbGciOiJQUzI1NiIsImtpZCI6InBzIn0.eyJpc3MiOiJqb2UiLCJleHAiOjEzMDA4MTkzODB9.S1x9e51dgsbq3YHuVGumyev-Ngzffizs"
        + "IGJoUy1LOLZWCcvQvyYdc-d7P0kHLuNpXQBhP1KHcFy8WzGePpgbXMxljwjU3GbtoHlWFoMg_1hkYvMEI-ghNIFEWQhmwjofpNfZgGkzLZEnV"
        + "Y6sznTOvv5ioubYt1VhBMamBWFwt-eOuGyT8gMb50N7fwXZN48cv5Smr0fLJZYF3lHvqdFKAgo1n7VpoN-FEVZEqKV-1QHwltQ1svgce2eUYB"
        + "8KDwvXRUna2xSI2d-U5SWioHEfzci_P3WHP1R4gQJ-Ht5S8kKaV7j9l8Hz0_aGysO9XPydOOZF4D65_uUfEKi1fkxNOA"

    static func rsaKey(_ modulus: String) throws -> JSONWebKey {
        JSONWebKey(material: .rsa(modulus: Array(try #require(Base64URL.decode(modulus))), exponent: [1, 0, 1]))
    }

    static func ecKey() throws -> JSONWebKey {
        JSONWebKey(
            material: .p256(
                x: Array(try #require(Base64URL.decode(rfcX))), y: Array(try #require(Base64URL.decode(rfcY)))))
    }

    func check(_ token: String, _ algorithm: JWSAlgorithm, _ key: JSONWebKey) throws -> Bool {
        let jws = try CompactJWS(token)
        return try PlatformSignatureVerifier().isValidSignature(
            jws.signature, of: jws.signingInput, by: algorithm, with: key)
    }

    @Test("RFC 7515 A.2's RS256 example verifies, and fails once one byte of the message changes")
    func rs256Example() throws {
        let key = try Self.rsaKey(Self.rfcModulus)
        #expect(try check(Self.rfcRS256, .rs256, key))
        let jws = try CompactJWS(Self.rfcRS256)
        var tampered = jws.signingInput
        tampered[tampered.count - 1] ^= 1
        #expect(try !PlatformSignatureVerifier().isValidSignature(jws.signature, of: tampered, by: .rs256, with: key))
        // The same signature checked as PSS is not valid: the padding is part of the algorithm.
        #expect(try !check(Self.rfcRS256, .ps256, key))
    }

    @Test("RFC 7515 A.3's ES256 example verifies, and fails for a flipped signature bit or another key")
    func es256Example() async throws {
        #expect(try check(Self.rfcES256, .es256, try Self.ecKey()))
        let jws = try CompactJWS(Self.rfcES256)
        var flipped = jws.signature
        flipped[10] ^= 0x40
        #expect(
            try !PlatformSignatureVerifier().isValidSignature(
                flipped, of: jws.signingInput, by: .es256, with: try Self.ecKey()))
        let other = try await TestIssuer.make().key.record.publicKey
        #expect(try !check(Self.rfcES256, .es256, JSONWebKey(material: .p256(x: other.x, y: other.y))))
    }

    @Test("A PS256 token verifies with its key, and not as RS256")
    func ps256() throws {
        let key = try Self.rsaKey(Self.psModulus)
        #expect(try check(Self.psToken, .ps256, key))
        #expect(try !check(Self.psToken, .rs256, key))
    }

    @Test("A signature of the wrong length is not valid, and a key of the wrong type for the algorithm is refused")
    func wrongShapes() throws {
        let jws = try CompactJWS(Self.rfcES256)
        let verifier = PlatformSignatureVerifier()
        #expect(
            try !verifier.isValidSignature(
                Array(jws.signature.dropLast()), of: jws.signingInput, by: .es256, with: try Self.ecKey()))
        #expect(throws: BearerError.invalidSignature("")) {
            _ = try verifier.isValidSignature(jws.signature, of: jws.signingInput, by: .rs256, with: try Self.ecKey())
        }
        #expect(throws: BearerError.invalidSignature("")) {
            _ = try verifier.isValidSignature(
                jws.signature, of: jws.signingInput, by: JWSAlgorithm(rawValue: "HS256"), with: try Self.ecKey())
        }
    }

    @Test("A P-256 point off the curve is refused by the platform")
    func pointOffTheCurve() throws {
        let key = JSONWebKey(material: .p256(x: [UInt8](repeating: 1, count: 32), y: [UInt8](repeating: 2, count: 32)))
        let jws = try CompactJWS(Self.rfcES256)
        #expect(throws: BearerError.invalidSignature("")) {
            _ = try PlatformSignatureVerifier().isValidSignature(
                jws.signature, of: jws.signingInput, by: .es256, with: key)
        }
    }

    @Test("An RSA public key is written as PKCS #1 DER, with a zero byte before a high bit and long-form lengths")
    func rsaPublicKeyDER() throws {
        #expect(
            JSONWebKey.rsaPublicKeyDER(modulus: [0x7F], exponent: [1, 0, 1]) == [0x30, 8, 2, 1, 0x7F, 2, 3, 1, 0, 1])
        #expect(JSONWebKey.rsaPublicKeyDER(modulus: [0x80], exponent: [3]) == [0x30, 7, 2, 2, 0, 0x80, 2, 1, 3])
        let modulus = Array(try #require(Base64URL.decode(Self.rfcModulus)))
        let der = JSONWebKey.rsaPublicKeyDER(modulus: modulus, exponent: [1, 0, 1])
        // SEQUENCE of 266 bytes: INTEGER of 257 (a zero byte, then the modulus) and INTEGER 65537.
        #expect(Array(der.prefix(8)) == [0x30, 0x82, 0x01, 0x0A, 0x02, 0x82, 0x01, 0x01])
        #expect(der[8] == 0 && Array(der[9..<265]) == modulus)
        #expect(Array(der.suffix(5)) == [2, 3, 1, 0, 1])
    }
}
