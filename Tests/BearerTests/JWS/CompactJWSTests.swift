import Foundation
import Testing

@_spi(Testing) @testable import BearerCore

@Suite("CompactJWS and JWSHeader: splitting and reading a signed token")
struct CompactJWSTests {
    static func token(header: String, payload: String = #"{"sub":"u"}"#, signature: String = "c2ln") -> String {
        Base64URL.encode(header.utf8) + "." + Base64URL.encode(payload.utf8) + "." + signature
    }

    @Test("The signing input is the first two segments exactly as received, and the header is read")
    func readsHeaderAndSigningInput() throws {
        let text = Self.token(header: #"{"alg":"ES256","kid":"k1","typ":"JWT"}"#)
        let jws = try CompactJWS(text)
        #expect(
            String(decoding: jws.signingInput, as: UTF8.self)
                == text.split(separator: ".").prefix(2).joined(separator: "."))
        #expect(jws.header.algorithm == .es256)
        #expect(jws.header.keyID == "k1")
        #expect(jws.header.type == "JWT")
        #expect(jws.signature == Array("sig".utf8))
        #expect(try jws.payloadObject()["sub"] == "u")
    }

    @Test(
        "Malformed tokens are refused with invalidSignature",
        arguments: [
            "a.b", "a.b.c.d", "", "..", "e30.e30.c2ln=", "e30.e3+.c2ln", "e30.e30.c2/n",
        ])
    func malformed(_ text: String) {
        #expect(throws: BearerError.invalidSignature("")) { _ = try CompactJWS(text) }
    }

    @Test("A header that is not an object, has no string alg, or a non-string kid or typ is refused")
    func badHeaders() {
        for header in [
            #"[]"#, #"{"kid":"k"}"#, #"{"alg":1}"#, #"{"alg":"ES256","kid":7}"#, #"{"alg":"ES256","typ":{}}"#,
            #"{"alg":"ES256","crit":[]}"#, #"{"alg":"ES256","crit":"exp"}"#,
        ] {
            #expect(throws: BearerError.invalidSignature(""), "\(header)") {
                _ = try CompactJWS(Self.token(header: header))
            }
        }
    }

    @Test("Key references and critical extensions are noted for the verification to refuse")
    func keyReferences() throws {
        let header = #"{"alg":"ES256","jku":"https://evil.example/keys","jwk":{},"crit":["b64"]}"#
        let jws = try CompactJWS(Self.token(header: header))
        #expect(jws.header.keyReferences == ["jku", "jwk"])
        #expect(jws.header.critical == ["b64"])
    }

    @Test("A token over 64 KiB is refused before it is split")
    func tooLong() {
        let text = Self.token(header: #"{"alg":"ES256"}"#, payload: String(repeating: "a", count: 70_000))
        #expect(throws: BearerError.invalidSignature("")) { _ = try CompactJWS(text) }
    }

    @Test("A payload that is not a JSON object is refused when read")
    func payloadNotObject() throws {
        let jws = try CompactJWS(Self.token(header: #"{"alg":"ES256"}"#, payload: "[1]"))
        #expect(throws: BearerError.invalidSignature("")) { _ = try jws.payloadObject() }
    }
}

@Suite("JSONWebKeySet: what a server's key set holds, and what Bearer uses of it")
struct JSONWebKeySetTests {
    static let x = Base64URL.encode([UInt8](repeating: 1, count: 32))
    static let n = Base64URL.encode([0xC0] + [UInt8](repeating: 7, count: 255))

    @Test("EC P-256 and RSA keys are read with their kid, use, alg and key_ops; other keys are ignored")
    func readsUsableKeys() throws {
        let json = """
            {"keys":[
              {"kty":"EC","crv":"P-256","x":"\(Self.x)","y":"\(Self.x)","kid":"ec","use":"sig","alg":"ES256"},
              {"kty":"RSA","n":"\(Self.n)","e":"AQAB","kid":"rsa","key_ops":["verify"]},
              {"kty":"OKP","crv":"Ed25519","x":"\(Self.x)","kid":"ed"},
              {"kty":"EC","crv":"P-384","x":"\(Self.x)","y":"\(Self.x)","kid":"p384"},
              {"kty":"oct","k":"c2VjcmV0","kid":"hmac"},
              {"kty":"RSA","n":"AQAB","e":"AQAB","kid":"short"},
              {"kty":"EC","crv":"P-256","x":"\(Self.x)","y":"\(Self.x)","d":"\(Self.x)","kid":"private"},
              {"kty":"EC","crv":"P-256","x":"\(Self.x)=","y":"\(Self.x)","kid":"padded"},
              "not a key"
            ]}
            """
        let set = try JSONWebKeySet(json: Data(json.utf8))
        #expect(set.keys.map(\.keyID) == ["ec", "rsa"])
        #expect(set.keys[0].algorithm == .es256)
        #expect(set.keys[1].operations == ["verify"])
    }

    @Test("A key fits an algorithm of its type, unless its use, alg or key_ops say otherwise")
    func fits() throws {
        let ec = JSONWebKey(material: .p256(x: [UInt8](repeating: 1, count: 32), y: [UInt8](repeating: 1, count: 32)))
        #expect(ec.fits(.es256))
        #expect(!ec.fits(.rs256))
        #expect(!JSONWebKey(material: ec.material, use: "enc").fits(.es256))
        let rsa = JSONWebKey(
            material: .rsa(modulus: [UInt8](repeating: 9, count: 256), exponent: [3]), algorithm: .rs256)
        #expect(rsa.fits(.rs256))
        #expect(!rsa.fits(.ps256))
        #expect(!rsa.fits(JWSAlgorithm(rawValue: "HS256")))
        let set = JSONWebKeySet(keys: [
            JSONWebKey(material: ec.material, keyID: "a"), JSONWebKey(material: ec.material, keyID: "b"),
        ])
        #expect(set.candidates(for: .es256, keyID: "b").map(\.keyID) == ["b"])
        #expect(set.candidates(for: .es256, keyID: nil).count == 2)
        #expect(set.candidates(for: .es256, keyID: "c").isEmpty)
    }

    @Test("A set over 64 KiB, with more than 64 keys, or without a keys array is refused as an invalid response")
    func refusedSets() {
        let many = "{\"keys\":[" + Array(repeating: "{}", count: 65).joined(separator: ",") + "]}"
        let large = "{\"keys\":[],\"pad\":\"" + String(repeating: "x", count: 70_000) + "\"}"
        for json in [many, large, "{}", "[]", "{\"keys\":{}}", "not json"] {
            #expect(throws: BearerError.invalidResponse("")) { _ = try JSONWebKeySet(json: Data(json.utf8)) }
        }
    }
}
