import Bearer
import BearerMigration
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("export --output writes a private file the way session files are written")
struct ExportCommandTests {
    private func mode(_ path: String) -> mode_t {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o777 : 0
    }

    @Test("The file is created with mode 0600, holds what stdout would, and the folder's mode is kept")
    func outputIsPrivate() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        try await fixture.store.save(try CommandFixture.session(), key: "default")
        let exports = fixture.folder.appendingPathExtension("files").appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        chmod(exports.path, 0o755)
        let target = exports.appendingPathComponent("session.archive").path
        let written = await fixture.run(["export", "--format", "gtmappauth", "--output", target])
        #expect(written.status == 0, "\(written.output.stderr)")
        #expect(written.output.stdout.isEmpty)
        #expect(mode(target) == 0o600)
        #expect(mode(exports.path) == 0o755)
        let printed = await fixture.run(["export", "--format", "gtmappauth"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == printed.output.stdoutBytes)
        #expect(try GTMAppAuthArchive.decode(Data(contentsOf: URL(fileURLWithPath: target))).client.id == "tool")
    }

    @Test("An existing readable file is replaced by a private one")
    func existingFileIsReplaced() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        try await fixture.store.save(try CommandFixture.session(), key: "default")
        let target = try fixture.file("session.txt", Data("old".utf8))
        chmod(target, 0o644)
        let (status, output) = await fixture.run(["export", "--format", "gtmoauth2", "--output", target])
        #expect(status == 0, "\(output.stderr)")
        #expect(mode(target) == 0o600)
        #expect(try String(contentsOfFile: target, encoding: .utf8).contains("refresh_token="))
    }

    @Test("A folder that does not exist is an error, and nothing is created")
    func missingFolder() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        try await fixture.store.save(try CommandFixture.session(), key: "default")
        let target = fixture.folder.appendingPathComponent("absent/session.txt").path
        let (status, _) = await fixture.run(["export", "--format", "gtmoauth2", "--output", target])
        #expect(status != 0)
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test(
        "adc for another issuer than Google says that Google's libraries ignore its token_uri; for Google it does not")
    func adcElsewhereIsFlagged() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        try await fixture.store.save(try CommandFixture.session(), key: "default")
        let elsewhere = await fixture.run(["export", "--format", "adc"])
        #expect(elsewhere.status == 0, "\(elsewhere.output.stderr)")
        #expect(elsewhere.output.stderr.contains("not Google"))
        #expect(elsewhere.output.stderr.contains("https://auth.example.com/token"))
        #expect(!elsewhere.output.stderr.contains("cli-refresh-token"))
        #expect(elsewhere.output.stdout.contains("\"token_uri\" : \"https://auth.example.com/token\""))

        try await fixture.store.save(try CommandFixture.session(issuer: "https://accounts.google.com"), key: "default")
        let google = await fixture.run(["export", "--format", "adc"])
        #expect(google.status == 0, "\(google.output.stderr)")
        #expect(!google.output.stderr.contains("not Google"))
    }

    @Test("The help says that --output replaces an existing file")
    func helpSaysReplaced() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let help = await fixture.run(["help", "export"])
        #expect(help.output.stdout.contains("replacing"))
        #expect(!help.output.stdout.contains("a new file of mode"))
    }
}
