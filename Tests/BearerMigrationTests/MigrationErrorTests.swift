import Foundation
import Testing

@testable import BearerMigration

@Suite("Migration errors")
struct MigrationErrorTests {
    @Test("An error records the file and line that raised it")
    func recordsFileAndLine() {
        let line: UInt = #line + 1
        let error = MigrationError.malformedItem("The item lacks a token; the user must sign in again.")
        #expect(error.file == #fileID)
        #expect(error.line == line)
    }

    @Test("The malformed-archive factory records its caller, not itself, and says what to do")
    func factoryForwardsFileAndLine() {
        let line: UInt = #line + 1
        let error = MigrationError.malformedArchive("a UID points nowhere")
        #expect(error.kind == .malformedArchive)
        #expect(error.file == #fileID)
        #expect(error.line == line)
        #expect(error.reason.contains("a UID points nowhere"))
        #expect(error.reason.contains("Export the keychain item again"))
    }

    @Test("Errors compare and hash by kind alone")
    func comparesByKind() {
        let first = MigrationError.storeFailure("Cannot read one; check the file's permissions.")
        let second = MigrationError.storeFailure("Cannot read another; check the file's permissions.")
        #expect(first == second)
        #expect(first.line != second.line)
        #expect(Set([first, second]).count == 1)
        #expect(first != MigrationError.malformedItem("Cannot read one; check the file's permissions."))
    }

    @Test("The localized description carries the kind and the reason")
    func localizedDescription() {
        let error: any Error = MigrationError.unknownFormat("The data is in no known format; pass --from.")
        #expect(
            error.localizedDescription == "MigrationError.unknownFormat: The data is in no known format; pass --from.")
    }
}
