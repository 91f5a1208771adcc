import Bearer
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// RFC 8259 §8.1: JSON between systems is UTF-8. Foundation's decoder would also read UTF-16 and
/// UTF-32, which the nesting guard cannot count, so every other encoding is refused first.
@Suite("JSON that is not UTF-8 is a typed error at every entry point, never a crash")
struct JSONEncodingTests {
    /// A valid token answer, so that only its encoding can make it fail.
    static let answer = #"{"access_token":"a","token_type":"Bearer","expires_in":60}"#

    /// The bypass: `∀` is U+2200, whose UTF-16LE bytes are `00 22`, so a byte-wise scan sees a
    /// quote open and then misses the 513 brackets that follow.
    static let bypass = "∀" + String(repeating: "[", count: 513)

    static let vectors: [(String, Data)] = [
        ("UTF-16LE with BOM", Data([0xFF, 0xFE]) + utf16(answer, bigEndian: false)),
        ("UTF-16BE with BOM", Data([0xFE, 0xFF]) + utf16(answer, bigEndian: true)),
        ("UTF-16LE without BOM", utf16(answer, bigEndian: false)),
        ("UTF-16BE without BOM", utf16(answer, bigEndian: true)),
        ("UTF-32LE with BOM", Data([0xFF, 0xFE, 0, 0]) + utf32(answer, bigEndian: false)),
        ("UTF-32BE without BOM", utf32(answer, bigEndian: true)),
        ("UTF-16LE bracket bypass", utf16(bypass, bigEndian: false)),
        ("UTF-16BE bracket bypass", Data([0xFE, 0xFF]) + utf16(bypass, bigEndian: true)),
        ("UTF-32LE bracket bypass", utf32(bypass, bigEndian: false)),
        (
            "UTF-8 then UTF-16",
            Data(#"{"access_token":"#.utf8) + utf16(#""a","token_type":"Bearer"}"#, bigEndian: false)
        ),
        ("a raw NUL", Data(#"{"access_token":"a\#u{0}","token_type":"Bearer"}"#.utf8)),
        (
            "an overlong quote",
            Data(#"{"access_token":"a"#.utf8) + Data([0xC0, 0xA2]) + Data(#","token_type":"Bearer"}"#.utf8)
        ),
        (
            "a lone surrogate",
            Data(#"{"access_token":"a"#.utf8) + Data([0xED, 0xA0, 0x80]) + Data(#"","token_type":"Bearer"}"#.utf8)
        ),
        ("Latin-1", Data(#"{"access_token":"caf"#.utf8) + Data([0xE9]) + Data(#"","token_type":"Bearer"}"#.utf8)),
    ]

    static let names = vectors.map(\.0)

    static func data(_ name: String) throws -> Data {
        try #require(vectors.first { $0.0 == name }).1
    }

    static func utf16(_ text: String, bigEndian: Bool) -> Data {
        Data(
            text.utf16.flatMap { unit in
                bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            })
    }

    static func utf32(_ text: String, bigEndian: Bool) -> Data {
        Data(
            text.unicodeScalars.flatMap { scalar -> [UInt8] in
                let bytes = (0..<4).map { UInt8((scalar.value >> (8 * $0)) & 0xFF) }
                return bigEndian ? bytes.reversed() : bytes
            })
    }

    @Test("A token endpoint's answer in another encoding is refused", arguments: names)
    func tokenResponse(name: String) throws {
        let response = TransportResponse(
            status: 200, headerFields: ["Content-Type": "application/json"], body: try Self.data(name))
        let error = #expect(throws: BearerError.self) {
            try TokenResponse(response: response, receivedAt: Fixtures.epoch)
        }
        #expect(error?.kind == .invalidResponse)
    }

    @Test("A session file, a discovery document or an ID token in another encoding is refused", arguments: names)
    func otherDocuments(name: String) throws {
        let data = try Self.data(name)
        let state = #expect(throws: BearerError.self) { try AuthState(encoded: data) }
        #expect(state?.kind == .unreadableSession)
        #expect(throws: BearerError.self) {
            try AuthorizationServer(metadata: data, expectedIssuer: Fixtures.url(Fixtures.issuer))
        }
        let segment = data.base64EncodedString().replacingOccurrences(of: "=", with: "")
        let idToken = #expect(throws: BearerError.self) { try IDToken("\(segment).\(segment).c2ln") }
        #expect(idToken?.kind == .invalidIDToken)
    }

    @Test("The same answer in UTF-8, with or without a byte-order mark, is read")
    func utf8IsRead() throws {
        for body in [Data(Self.answer.utf8), Data([0xEF, 0xBB, 0xBF]) + Data(Self.answer.utf8)] {
            let response = TransportResponse(
                status: 200, headerFields: ["Content-Type": "application/json"], body: body)
            #expect(try TokenResponse(response: response, receivedAt: Fixtures.epoch).accessToken?.value == "a")
        }
        #expect(JSONText.isUTF8(Data("ünïcødé 𝄞 €".utf8)))
    }
}
