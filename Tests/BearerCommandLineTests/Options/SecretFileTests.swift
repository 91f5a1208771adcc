import Bearer
import Foundation
import Testing

@Suite("The client secret comes from a file or the environment, out of the process's arguments")
struct ClientSecretOptionTests {
    private let legacy = Data("refresh_token=legacy-refresh&scope=email".utf8)

    private func migrate(_ fixture: CommandFixture, _ extra: [String], variables: [String: String] = [:]) async throws
        -> (status: Int32, output: Capture)
    {
        let path = try fixture.file("persistence.txt", legacy)
        return await fixture.run(
            ["migrate", "--from", "gtmoauth2", path, "--google", "--client-id", "tool"] + extra, variables: variables)
    }

    @Test("--client-secret-file reads the secret from the file's first line, without surrounding white space")
    func secretFromFile() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let secretFile = try fixture.file("secret", Data("  secret-from-file \nsecond line\n".utf8))
        let (status, output) = try await migrate(fixture, ["--client-secret-file", secretFile])
        #expect(status == 0, "\(output.stderr)")
        #expect(try await fixture.store.load(key: "default")?.client.secret?.value == "secret-from-file")
        #expect(!output.stderr.contains("secret-from-file"))
    }

    @Test("BEARER_CLIENT_SECRET gives the secret when no flag does")
    func secretFromEnvironment() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let (status, output) = try await migrate(fixture, [], variables: ["BEARER_CLIENT_SECRET": "secret-from-env"])
        #expect(status == 0, "\(output.stderr)")
        #expect(try await fixture.store.load(key: "default")?.client.secret?.value == "secret-from-env")
    }

    @Test("A flag wins over BEARER_CLIENT_SECRET")
    func flagWinsOverEnvironment() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let secretFile = try fixture.file("secret", Data("secret-from-file".utf8))
        let (status, _) = try await migrate(
            fixture, ["--client-secret-file", secretFile], variables: ["BEARER_CLIENT_SECRET": "secret-from-env"])
        #expect(status == 0)
        #expect(try await fixture.store.load(key: "default")?.client.secret?.value == "secret-from-file")
    }

    @Test("Two secret flags, an empty file or a missing one are usage errors, and nothing is saved")
    func badSecretOptions() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let empty = try fixture.file("empty", Data("\n".utf8))
        let both = try fixture.file("secret", Data("secret-from-file".utf8))
        for extra in [
            ["--client-secret-file", both, "--client-secret", "inline"],
            ["--client-secret-file", empty],
            ["--client-secret-file", fixture.folder.appendingPathComponent("absent").path],
        ] {
            let (status, output) = try await migrate(fixture, extra)
            #expect(status == 64, "\(output.stderr)")
            #expect(!output.stderr.contains("secret-from-file") && !output.stderr.contains("inline"))
            #expect(try await fixture.store.load(key: "default") == nil)
        }
    }
}
