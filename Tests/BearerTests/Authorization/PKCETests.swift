import Bearer
import Foundation
import Testing

@testable import BearerCore

@Suite("PKCE")
struct PKCETests {
    @Test("RFC 7636 Appendix B: the verifier gives the published S256 challenge")
    func rfc7636AppendixB() throws {
        let pkce = try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(PKCE.challengeMethod == "S256")
    }

    @Test("1000 generated verifiers are 43 unreserved characters, distinct, with matching challenges")
    func generatedVerifiersAreValidAndDistinct() throws {
        var seen: Set<String> = []
        for _ in 0..<1000 {
            let pkce = PKCE()
            #expect(pkce.verifier.count == 43)
            #expect(
                pkce.verifier.allSatisfy {
                    $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || "-._~".contains($0)
                })
            #expect(try PKCE(verifier: pkce.verifier) == pkce)
            #expect(pkce.challenge == PKCE.challenge(for: pkce.verifier))
            seen.insert(pkce.verifier)
        }
        #expect(seen.count == 1000)
    }

    @Test(
        "Verifiers of 43 and 128 characters are accepted; 42 and 129 are refused",
        arguments: [
            (42, false), (43, true), (128, true), (129, false), (0, false),
        ])
    func verifierLengthBounds(length: Int, accepted: Bool) {
        let verifier = String(repeating: "a", count: length)
        if accepted {
            #expect(throws: Never.self) { try PKCE(verifier: verifier) }
        } else {
            let error = #expect(throws: BearerError.self) { try PKCE(verifier: verifier) }
            #expect(error?.kind == .invalidConfiguration)
        }
    }

    @Test("Characters outside the unreserved set are refused", arguments: ["+", "/", "=", " ", "%", "é", "*"])
    func verifierCharacterSet(character: String) {
        let verifier = String(repeating: "a", count: 42) + character
        let error = #expect(throws: BearerError.self) { try PKCE(verifier: verifier) }
        #expect(error?.kind == .invalidConfiguration)
    }

    @Test("A saved PKCE decodes back to the same verifier, and a tampered one is refused")
    func codableRoundTripChecksTheVerifier() throws {
        let pkce = PKCE()
        let data = try JSONEncoder().encode(pkce)
        #expect(try JSONDecoder().decode(PKCE.self, from: data) == pkce)
        let tampered = Data(#"{"verifier":"short"}"#.utf8)
        #expect(throws: BearerError.self) { try JSONDecoder().decode(PKCE.self, from: tampered) }
    }
}
