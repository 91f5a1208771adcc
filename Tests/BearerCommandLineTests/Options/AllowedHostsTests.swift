import Bearer
import BearerTestSupport
import Foundation
import Testing

@Suite("A profile sends its tokens only to its server's host and the hosts added with --allow-host")
struct AllowedHostsTests {
    @Test("curl to a host other than the issuer's is refused without a request, naming --allow-host")
    func otherHostIsRefused() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        try await fixture.store.save(try CommandFixture.session(), key: "default")
        let (status, output) = await fixture.run(["curl", "https://api.other.example/v1/files"])
        #expect(status == 1)
        #expect(output.stderr.contains("--allow-host api.other.example"), "\(output.stderr)")
        #expect(output.stderr.contains("auth.example.com"))
        #expect(await fixture.transport.requests.isEmpty)
        #expect(!output.stderr.contains("cli-access-token"))
    }

    @Test("A resource's profile sends its token to the resource on its own host, and not to the issuer's")
    func resourceProfile() async throws {
        let fixture = CommandFixture(replies: [.json(200, #"{"ok":true}"#)])
        defer { fixture.removeAll() }
        var state = try CommandFixture.session()
        state.resource = try ProtectedResource(try #require(URL(string: "https://mcp.example.net/mcp")))
        try await fixture.store.save(state, key: "default")
        let (status, output) = await fixture.run(["curl", "https://mcp.example.net/mcp/tools"])
        #expect(status == 0, "\(output.stderr)")
        #expect(await fixture.transport.requests.first?.headerFields["Authorization"] != nil)

        let (refused, refusal) = await fixture.run(["curl", "https://auth.example.com/api/me"])
        #expect(refused == 1)
        #expect(refusal.stderr.contains("mcp.example.net"), "\(refusal.stderr)")
        #expect(await fixture.transport.requests.count == 1, "nothing was sent to the issuer's host")
    }

    @Test("curl to the issuer's host gets the token")
    func issuerHostIsAllowed() async throws {
        let fixture = CommandFixture(replies: [.json(200, #"{"ok":true}"#)])
        defer { fixture.removeAll() }
        try await fixture.store.save(try CommandFixture.session(), key: "default")
        let (status, output) = await fixture.run(["curl", "https://auth.example.com/api/me"])
        #expect(status == 0, "\(output.stderr)")
        let sent = try #require(await fixture.transport.requests.first)
        #expect(sent.headerFields["Authorization"] != nil)
    }

    @Test("Hosts given with --allow-host are saved with the profile and get the token; others still do not")
    func addedHostsAreSaved() async throws {
        let fixture = CommandFixture(replies: [
            .json(200, #"{"access_token":"cli-access-2","token_type":"Bearer","expires_in":3600}"#),
            .json(200, #"{"ok":true}"#),
            .json(200, #"{"ok":true}"#),
        ])
        defer { fixture.removeAll() }
        let legacy = try fixture.file("persistence.txt", Data("refresh_token=legacy-refresh&scope=email".utf8))
        let migrated = await fixture.run([
            "migrate", "--from", "gtmoauth2", legacy, "--google", "--client-id", "tool",
            "--allow-host", "api.example.org", "--allow-host", "*.files.example.org",
        ])
        #expect(migrated.status == 0, "\(migrated.output.stderr)")
        let allowed = await fixture.run(["curl", "https://api.example.org/v1"])
        #expect(allowed.status == 0, "\(allowed.output.stderr)")
        let wildcard = await fixture.run(["curl", "https://eu.files.example.org/v1"])
        #expect(wildcard.status == 0, "\(wildcard.output.stderr)")
        let refused = await fixture.run(["curl", "https://www.example.org/"])
        #expect(refused.status == 1)
        #expect(refused.output.stderr.contains("--allow-host www.example.org"), "\(refused.output.stderr)")
        let hosts = await fixture.transport.requests.compactMap { $0.url.host }
        #expect(hosts == ["oauth2.googleapis.com", "api.example.org", "eu.files.example.org"])
    }

    @Test(
        "--allow-host takes a host name, not a URL", arguments: ["https://api.example.org", "api.example.org:443", ""])
    func malformedHostIsUsageError(host: String) async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let legacy = try fixture.file("persistence.txt", Data("refresh_token=legacy-refresh".utf8))
        let (status, output) = await fixture.run([
            "migrate", "--from", "gtmoauth2", legacy, "--google", "--client-id", "tool", "--allow-host", host,
        ])
        #expect(status == 64, "\(output.stderr)")
        #expect(output.stderr.contains("--allow-host needs a host name"))
    }
}
