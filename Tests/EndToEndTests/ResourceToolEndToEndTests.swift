import Bearer
import Foundation
import Testing

@testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `bearer login RESOURCE-URL` as a user runs it, against PyPI `mcp`'s authorization server with
/// four-second access tokens, under another host name (`localhost`) than the resource
/// (`127.0.0.1`), then `curl` and `token` from other processes.
@Suite(
    "End to end: bearer login with a resource URL",
    .enabled(if: MCPAuthorization.isConfigured, MCPAuthorization.skipReason))
struct ResourceToolEndToEndTests {
    @Test("login with only the resource's URL; other processes curl it, and two of them share one refresh")
    func loginThenOtherProcesses() async throws {
        let server = try await MCPAuthorization(arguments: [
            "--access-token-seconds", "4", "--issuer-host", "localhost",
        ])
        let tool = BearerTool()
        defer { tool.cleanUp() }
        let login = try await tool.run([
            "login", server.resource.absoluteString, "--allow-insecure-loopback", "--open-with", try Browser.command,
        ])
        try #require(login.status == 0, "login failed: \(login.stderr)")
        #expect(login.stderr.contains("Signed in to \(server.resource.absoluteString)"))
        let state = try #require(try await tool.store.load(key: "default"))
        #expect(state.resource?.description == server.resource.absoluteString)
        let token = try #require(state.accessToken?.value)
        #expect(!login.stderr.contains(token) && !login.output.contains(token))

        let status = try await tool.run(["status", "--json"])
        let object = try JSONDecoder().decode([String: JSONValue].self, from: status.stdout)
        #expect(object["resource"] == .string(server.resource.absoluteString))

        let curl = try await tool.run(["curl", try server.resource("/whoami").absoluteString])
        #expect(curl.status == 0, "curl failed: \(curl.stderr)")
        #expect(curl.output.contains(server.resource.absoluteString))
        let elsewhere = server.otherResource.absoluteString + "/whoami"
        let refused = try await tool.run(["curl", elsewhere])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("not for"), "the tool says the token is for another resource")

        // Past the access token's life, two processes at once: one refresh, naming the resource.
        try await Task.sleep(for: .seconds(5))
        try await server.clearLog()
        let first = try tool.start(["token"])
        let second = try tool.start(["token"])
        let (one, two) = (await first.finish(), await second.finish())
        #expect(one.status == 0 && two.status == 0, "token failed: \(one.stderr) \(two.stderr)")
        #expect(one.output == two.output && one.output != token + "\n", "both print the one refreshed token")
        let refreshes = try await server.log().filter { $0.grantType == "refresh_token" }
        #expect(refreshes.count == 1, "one refresh across the two processes")
        #expect(refreshes.first?.resource == server.resource.absoluteString && refreshes.first?.status == 200)
        let after = try await tool.run(["curl", try server.resource("/whoami").absoluteString])
        #expect(after.status == 0, "the refreshed session still works: \(after.stderr)")
    }
}
