import Bearer
import Foundation
import Testing

@_spi(Benchmarks) @_spi(Migration) @_spi(Testing) @testable import BearerCore

/// Thumbprints against the RFCs' vectors, and the shape of the proofs Bearer makes (RFC 9449 §4).
/// That the signatures verify is checked by an independent verifier in the end-to-end tests.
@Suite("DPoP: thumbprints and proofs")
struct DPoPProofTests {
    /// The key of RFC 9449 §4.1's examples.
    static let rfcKey = try? DPoPPublicKey(
        x: Array(Base64URL.decode("l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs") ?? Data()),
        y: Array(Base64URL.decode("9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA") ?? Data()))

    @Test("RFC 7638 §3.1: the RSA example key's thumbprint")
    func rsaThumbprint() {
        let n =
            "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3"
            + "oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdA"
            + "ZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur"
            + "-kEgU8awapJzKnqDKgw"
        #expect(
            JWKThumbprint.of(requiredMembers: ["kty": "RSA", "n": n, "e": "AQAB"])
                == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
    }

    @Test("RFC 9449 §6.1: the example EC key's thumbprint, the jkt its tokens are bound to")
    func ecThumbprint() throws {
        let key = try #require(Self.rfcKey)
        #expect(key.thumbprint == "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I")
        #expect(
            key.jwk
                == #"{"crv":"P-256","kty":"EC","x":"l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs","y":"9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA"}"#
        )
    }

    @Test("RFC 9449 §7.1: ath is base64url SHA-256 of the access token")
    func accessTokenHash() {
        #expect(
            DPoPProof.accessTokenHash(AccessToken("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"))
                == "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo")
    }

    @Test("htu leaves out the query and the fragment, and an empty path is /")
    func targetURI() {
        #expect(
            DPoPProof.targetURI(of: URL(string: "https://server.example.com/token?a=b#c")!)
                == "https://server.example.com/token")
        #expect(DPoPProof.targetURI(of: URL(string: "https://server.example.com")!) == "https://server.example.com/")
        #expect(
            DPoPProof.targetURI(of: URL(string: "http://127.0.0.1:8080/api/oidc/token")!)
                == "http://127.0.0.1:8080/api/oidc/token")
        #expect(
            DPoPProof.targetURI(of: URL(string: "https://user:secret@api.example.com/v1?q=1")!)
                == "https://api.example.com/v1", "no user information")
        #expect(DPoPProof.targetURI(of: URL(string: "https://a@b.example:8443#x")!) == "https://b.example:8443/")
    }

    @Test("A proof has RFC 9449 §4.2's header and claims: typ, alg, jwk; jti, htm, htu, iat, nonce, ath")
    func proofShape() async throws {
        let key = try await PlatformDPoPKeys().makeKey()
        let proof = DPoPProof(
            method: "GET", url: URL(string: "https://resource.example.org/protectedresource?x=1")!,
            nonce: "eyJ7S_zG.eyJH0-Z.HX4w-7v", accessToken: AccessToken("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"),
            issuedAt: Date(timeIntervalSince1970: 1_562_262_618.9))
        let compact = try await proof.signed(with: key, identifier: "e1j3V_bKic8-LAEB")
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        let header = try JSONDecoder().decode([String: JSONValue].self, from: try #require(Base64URL.decode(parts[0])))
        #expect(header["typ"] == .string("dpop+jwt"))
        #expect(header["alg"] == .string("ES256"))
        guard case .object(let jwk)? = header["jwk"] else {
            Issue.record("no jwk")
            return
        }
        #expect(jwk["kty"] == .string("EC") && jwk["crv"] == .string("P-256"))
        #expect(jwk["d"] == nil, "the private key never leaves in a proof")
        #expect(jwk["x"] == .string(Base64URL.encode(key.record.publicKey.x)))
        let claims = try JSONDecoder().decode([String: JSONValue].self, from: try #require(Base64URL.decode(parts[1])))
        #expect(
            claims == [
                "jti": .string("e1j3V_bKic8-LAEB"), "htm": .string("GET"),
                "htu": .string("https://resource.example.org/protectedresource"), "iat": .number(1_562_262_618),
                "nonce": .string("eyJ7S_zG.eyJH0-Z.HX4w-7v"),
                "ath": .string("fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo"),
            ])
        #expect(Base64URL.decode(parts[2])?.count == 64, "an ES256 signature is r‖s, 64 bytes")
    }

    @Test("Each proof has its own jti")
    func uniqueIdentifiers() {
        let identifiers = Set((0..<1000).map { _ in DPoPProof.randomIdentifier() })
        #expect(identifiers.count == 1000)
    }

    @Test("A key that returns something other than a 64-byte signature makes no proof")
    func wrongSignatureLength() async throws {
        struct ShortKey: DPoPKey {
            let record: DPoPKeyRecord
            func signature(for message: [UInt8]) async throws -> [UInt8] { [1, 2, 3] }
        }
        let real = try await PlatformDPoPKeys().makeKey()
        let proof = DPoPProof(method: "POST", url: URL(string: "https://a.example/token")!, issuedAt: Date())
        let error = await #expect(throws: BearerError.self) {
            try await proof.signed(with: ShortKey(record: real.record))
        }
        #expect(error?.kind == .proofOfPossession)
    }

    @Test("DPoP challenges are read like Bearer ones, and a nonce must be NQCHARs")
    func challengesAndNonces() {
        let header = #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#
        #expect(BearerChallenge(header: header, scheme: "DPoP")?.error == "use_dpop_nonce")
        #expect(BearerChallenge(header: header) == nil)
        #expect(
            BearerChallenge(header: #"Bearer realm="x", DPoP error="invalid_token""#, scheme: "dpop")?.error
                == "invalid_token")
        #expect(DPoPMemory.isValid("eyJ7S_zG.eyJH0-Z.HX4w-7v"))
        #expect(!DPoPMemory.isValid(""))
        #expect(!DPoPMemory.isValid("has space"))
        #expect(!DPoPMemory.isValid("quote\""))
    }
}
