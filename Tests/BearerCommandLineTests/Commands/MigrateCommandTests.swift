import Bearer
import BearerMigration
import BearerTestSupport
import Foundation
import Testing

@_spi(CommandLine) @_spi(Migration) @testable import BearerCore

@Suite("migrate: explicit flags win over what a file lacks, and a conflict with what it holds is refused")
struct MigrateCommandTests {
    private static let discovery = #"""
        {"issuer":"https://auth.example.com/o","authorization_endpoint":"https://auth.example.com/o/authorize/",
        "token_endpoint":"https://auth.example.com/o/token/","revocation_endpoint":"https://auth.example.com/o/revoke/"}
        """#

    private func archive(_ fixture: CommandFixture) throws -> String {
        let state = try CommandFixture.session(issuer: "https://auth.example.com/o")
        return try fixture.file("session.archive", GTMAppAuthArchive.encode(state))
    }

    @Test("An --issuer other than the archive's is refused with exit 64, naming both, and nothing is saved")
    func conflictingIssuer() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let (status, output) = await fixture.run([
            "migrate", "--from", "gtmappauth", try archive(fixture), "--issuer", "https://auth.example.com",
        ])
        #expect(status == 64, "\(output.stderr)")
        #expect(output.stderr.contains("https://auth.example.com/o"))
        #expect(output.stderr.contains("but https://auth.example.com was given"))
        #expect(try await fixture.store.load(key: "default") == nil)
    }

    @Test("The archive's own issuer given again is accepted")
    func matchingIssuer() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let (status, output) = await fixture.run([
            "migrate", "--from", "gtmappauth", try archive(fixture), "--issuer", "https://auth.example.com/o",
        ])
        #expect(status == 0, "\(output.stderr)")
        #expect(
            try await fixture.store.load(key: "default")?.server.issuer.absoluteString == "https://auth.example.com/o")
    }

    @Test("A --client-id other than the file's is refused with exit 64, naming both")
    func conflictingClientID() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let (status, output) = await fixture.run([
            "migrate", "--from", "gtmappauth", try archive(fixture), "--client-id", "another-client",
        ])
        #expect(status == 64, "\(output.stderr)")
        #expect(output.stderr.contains("names the client ID tool, but --client-id another-client was given"))
        #expect(try await fixture.store.load(key: "default") == nil)
    }

    @Test("Application default credentials with --issuer of another server are saved for that server, not Google")
    func credentialsOnAnotherServer() async throws {
        let fixture = CommandFixture(replies: [.json(200, Self.discovery)])
        defer { fixture.removeAll() }
        let credentials = try fixture.file(
            "adc.json",
            Data(
                #"{"type":"authorized_user","client_id":"tool","client_secret":"adc-secret","refresh_token":"adc-refresh"}"#
                    .utf8))
        let (status, output) = await fixture.run([
            "migrate", "--from", "adc", credentials, "--issuer", "https://auth.example.com/o",
        ])
        #expect(status == 0, "\(output.stderr)")
        let state = try #require(try await fixture.store.load(key: "default"))
        #expect(!state.server.isGoogle)
        #expect(state.server.issuer.absoluteString == "https://auth.example.com/o")
        #expect(state.server.tokenEndpoint.absoluteString == "https://auth.example.com/o/token/")
        #expect(state.client.secret?.value == "adc-secret")
    }

    @Test("Application default credentials without --issuer stay Google's")
    func credentialsOnGoogle() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let credentials = try fixture.file(
            "adc.json",
            Data(
                #"{"type":"authorized_user","client_id":"tool","client_secret":"adc-secret","refresh_token":"adc-refresh"}"#
                    .utf8))
        let (status, _) = await fixture.run(["migrate", "--from", "adc", credentials])
        #expect(status == 0)
        #expect(try await fixture.store.load(key: "default")?.server.isGoogle == true)
        #expect(await fixture.transport.requests.isEmpty)
    }

    @Test("--allow-insecure-loopback is kept for an archive on a local http server")
    func insecureLoopback() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        var state = try CommandFixture.session(issuer: "http://127.0.0.1:8000/o", revocation: nil)
        state.server.allowsInsecureLoopback = true
        let path = try fixture.file("local.archive", GTMAppAuthArchive.encode(state))
        let refused = await fixture.run(["migrate", "--from", "gtmappauth", path])
        #expect(refused.status != 0)
        #expect(try await fixture.store.load(key: "default") == nil)
        let (status, output) = await fixture.run(["migrate", "--from", "gtmappauth", path, "--allow-insecure-loopback"])
        #expect(status == 0, "\(output.stderr)")
        #expect(try await fixture.store.load(key: "default")?.server.allowsInsecureLoopback == true)
    }
}
