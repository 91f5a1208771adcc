import Bearer
import BearerCommandLine
import BearerTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `status` prints nothing that drives a terminal, and `logout` removes unrevoked only what
/// cannot be read at all.
@Suite("The tool's status and logout on hostile or unsafe sessions")
struct ToolHardeningTests {
    static let hostile = ["tool\u{1B}[31m", "tool\u{85}x", "tool\u{202E}lnk.exe", "tool\u{9B}2J", "a\u{2066}b"]

    @Test(
        "status and status --json show a hostile client ID without its control or format characters", arguments: hostile
    )
    func hostileClientID(clientID: String) async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        var state = try CommandFixture.session()
        state.client = Client(id: clientID, redirectURI: state.client.redirectURI)
        try await fixture.store.save(state, key: "default")
        for arguments in [["status"], ["status", "--json"]] {
            let (status, output) = await fixture.run(arguments)
            #expect(status == 0, "\(output.stderr)")
            #expect(
                !output.stdout.unicodeScalars.contains { scalar in
                    [.control, .format].contains(scalar.properties.generalCategory) && scalar != "\n"
                })
        }
        let (_, json) = await fixture.run(["status", "--json"])
        let object = try JSONDecoder().decode([String: JSONValue].self, from: Data(json.stdout.utf8))
        #expect(object["client_id"] == .string(clientID), "the escapes decode back to the same text")
    }

    @Test("logout refuses a session file others can read, and a folder others can write, and removes nothing")
    func unsafeSessionIsNotRemoved() async throws {
        for unsafe in ["file", "folder"] {
            let fixture = CommandFixture(replies: [.json(200, "{}"), .json(200, "{}")])
            defer { fixture.removeAll() }
            try await fixture.store.save(try CommandFixture.session(), key: "default")
            let file = try fixture.store.fileURL(for: "default").path
            if unsafe == "file" { chmod(file, 0o644) } else { chmod(fixture.folder.path, 0o777) }
            let (status, output) = await fixture.run(["logout"])
            #expect(status != 0, "\(unsafe): \(output.stderr)")
            #expect(FileManager.default.fileExists(atPath: file), "\(unsafe): nothing removed")
            #expect(await fixture.transport.requests.isEmpty)
            chmod(file, 0o600)
            chmod(fixture.folder.path, 0o700)
        }
    }

    /// A fixture whose default profile's session file, a safe one, holds `contents`.
    private static func sessionFile(containing contents: Data) async throws -> (CommandFixture, String) {
        let fixture = CommandFixture()
        try await fixture.store.save(try CommandFixture.session(), key: "default")
        let file = try fixture.store.fileURL(for: "default").path
        try contents.write(to: URL(fileURLWithPath: file))
        return (fixture, file)
    }

    @Test("logout removes a corrupt session unrevoked and exits non-zero; no session is no error")
    func corruptSessionIsRemoved() async throws {
        let (fixture, file) = try await Self.sessionFile(containing: Data("{not json".utf8))
        defer { fixture.removeAll() }
        let (status, output) = await fixture.run(["logout"])
        #expect(status == 1, "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(await fixture.run(["logout"]).status == 0)
    }

    @Test("logout refuses a session a newer release wrote, keeps it and exits 65")
    func newerSessionIsKept() async throws {
        let newer = Data(#"{"version":5,"grant":"held by a newer release"}"#.utf8)
        let (fixture, file) = try await Self.sessionFile(containing: newer)
        defer { fixture.removeAll() }
        let (status, output) = await fixture.run(["logout"])
        #expect(status == 65, "\(output.stderr)")
        #expect(output.stderr.contains("format version 5"))
        #expect(FileManager.default.contents(atPath: file) == newer)
        #expect(await fixture.transport.requests.isEmpty)
    }
}
