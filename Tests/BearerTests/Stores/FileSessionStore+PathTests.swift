import Foundation
import Testing

@_spi(CommandLine) @testable import BearerCore

@Suite("FileSessionStore made from a path names the same files as one made from its URL")
struct FileSessionStorePathTests {
    @Test(
        "Plain absolute paths are kept; anything else is resolved as a file URL resolves it",
        arguments: [
            "/tmp/bearer-sessions", "/", "/tmp/bearer-sessions/", "/tmp//bearer", "/tmp/./bearer", "/tmp/a/../bearer",
            "relative/sessions", "/tmp/.hidden/...", "/tmp/caf\u{E9} 100%",
        ])
    func sameFiles(path: String) throws {
        let byPath = FileSessionStore(directoryPath: path)
        let byURL = FileSessionStore(directory: URL(fileURLWithPath: path, isDirectory: true))
        #expect(try byPath.filePath(for: "default") == byURL.filePath(for: "default"))
        #expect(byPath.directory.path == byURL.directory.path)
    }
}
