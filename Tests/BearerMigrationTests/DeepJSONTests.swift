import Bearer
import BearerMigration
import Foundation
import Testing

@Suite("Legacy JSON files nested past Foundation's limit are refused, never a crash")
struct DeepJSONTests {
    @Test("Credentials files and format detection refuse 513 levels of nesting")
    func deepNesting() throws {
        let data = Data(String(repeating: "[", count: 513).utf8)
        #expect(LegacyFormat.detect(data) == nil)
        let error = #expect(throws: MigrationError.self) { try ApplicationDefaultCredentials.decode(data) }
        #expect(error?.kind == .malformedItem)
    }
}
