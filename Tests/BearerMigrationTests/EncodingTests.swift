import Bearer
import BearerMigration
import Foundation
import Testing

@Suite("Legacy JSON files in UTF-16 or UTF-32 are refused, never a crash")
struct EncodingTests {
    static func utf16LE(_ text: String) -> Data {
        Data([0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    }

    static func utf32BE(_ text: String) -> Data {
        Data(
            text.unicodeScalars.flatMap { scalar in (0..<4).reversed().map { UInt8((scalar.value >> (8 * $0)) & 0xFF) }
            })
    }

    static let credentials =
        #"{"type":"authorized_user","client_id":"c.apps.googleusercontent.com","client_secret":"s","refresh_token":"r"}"#

    @Test(
        "Credentials files and format detection refuse other encodings",
        arguments: [
            utf16LE(credentials), utf32BE(credentials), utf16LE("∀" + String(repeating: "[", count: 513)),
            Data(#"{"type":"authorized_user","#.utf8) + utf16LE(#""refresh_token":"r"}"#),
        ])
    func otherEncodings(data: Data) throws {
        #expect(LegacyFormat.detect(data) != .applicationDefaultCredentials)
        let error = #expect(throws: MigrationError.self) { try ApplicationDefaultCredentials.decode(data) }
        #expect(error?.kind == .malformedItem)
    }

    @Test("The same credentials file in UTF-8 is read")
    func utf8IsRead() throws {
        #expect(LegacyFormat.detect(Data(Self.credentials.utf8)) == .applicationDefaultCredentials)
    }
}
