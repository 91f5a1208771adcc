import Foundation
import Testing

@Suite("migrate into a config folder that others can write")
struct MigrateFolderTrustTests {
    @Test("A folder others can write is refused with its chmod, whether or not a session file was planted in it")
    func writableFolderIsRefused() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let legacy = try fixture.file("persistence.txt", Data("refresh_token=legacy-refresh".utf8))
        try FileManager.default.createDirectory(at: fixture.folder, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: fixture.folder.path)
        let arguments = ["migrate", "--from", "gtmoauth2", legacy, "--google", "--client-id", "tool"]
        let empty = await fixture.run(arguments)
        #expect(empty.status == 65, "\(empty.output.stderr)")
        #expect(empty.output.stderr.contains("chmod 700"))
        let planted = fixture.folder.appendingPathComponent("default.json")
        try Data("{}".utf8).write(to: planted)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: planted.path)
        let withFile = await fixture.run(arguments)
        #expect(withFile.status == 65, "\(withFile.output.stderr)")
        #expect(withFile.output.stderr.contains("chmod 700"))
        #expect(try Data(contentsOf: planted) == Data("{}".utf8), "nothing was written there")
    }
}
