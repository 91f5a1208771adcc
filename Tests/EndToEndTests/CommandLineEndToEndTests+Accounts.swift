import Bearer
import Foundation
import Testing

/// Several accounts in one profile of the tool, against django-oauth-toolkit's users alice and
/// bob (seeded by the test server): added side by side, listed, chosen per command, used in
/// parallel, the same user signing in again, and one removed while the other keeps working.
extension CommandLineEndToEndTests {
    /// `bearer login` as `user` through the headless browser.
    func login(_ tool: BearerTool, as user: String) async throws -> ChildProcess.Result {
        try await tool.run([
            "login", "--issuer", try issuer(), "--allow-insecure-loopback", "--client-id", client, "--scope",
            "openid email", "--open-with", "\(try Browser.command) --user \(user)",
        ])
    }

    /// The e-mail the server's UserInfo endpoint answers for the token of `arguments`' account.
    func userInfoEmail(_ tool: BearerTool, _ arguments: [String], variables: [String: String] = [:]) async throws
        -> String?
    {
        let result = try await tool.run(
            ["curl", try TestServer.url("/o/userinfo/").absoluteString] + arguments, variables: variables)
        try #require(result.status == 0, "curl failed: \(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        return object?["email"] as? String
    }

    @Test("Two users in one profile: added side by side, listed, chosen per command, in parallel, one removed")
    func accounts() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        let alice = try await login(tool, as: "alice")
        try #require(alice.status == 0, "\(alice.stderr)")
        let bob = try await login(tool, as: "bob")
        try #require(bob.status == 0, "\(bob.stderr)")
        #expect(bob.stderr.contains("Signed in as bob@example.com"))
        #expect(bob.stderr.contains("1 other account(s) kept"))

        let listed = try await tool.run(["accounts", "--json"])
        #expect(listed.status == 0)
        let entries = try #require(
            try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]])
        #expect(Set(entries.compactMap { $0["email"] as? String }) == ["alice@example.com", "bob@example.com"])
        #expect(entries.first { $0["default"] as? Bool == true }?["email"] as? String == "bob@example.com")
        let keys = try await tool.store.keys()
        #expect(keys.count == 2)
        #expect(!keys.contains { $0.contains("example.com") }, "no e-mail in a file name")

        // Each account's token is the server's for that user, chosen per command, at once.
        async let forAlice = userInfoEmail(tool, ["--account", "alice@example.com"])
        async let forBob = userInfoEmail(tool, [], variables: ["BEARER_ACCOUNT": "bob@example.com"])
        let (aliceEmail, bobEmail) = try await (forAlice, forBob)
        #expect(aliceEmail == "alice@example.com")
        #expect(bobEmail == "bob@example.com")
        #expect(try await userInfoEmail(tool, []) == "bob@example.com", "the default is the last one signed in")
        async let aliceToken = tool.run(["token", "--account", "alice@example.com"])
        async let bobToken = tool.run(["token", "--account", "bob@example.com"])
        let tokens = try await [aliceToken, bobToken]
        #expect(tokens.allSatisfy { $0.status == 0 })
        #expect(Set(tokens.map(\.output)).count == 2, "two accounts never share a token")

        // The same user again updates its account; choosing the default is one command.
        let again = try await login(tool, as: "alice")
        try #require(again.status == 0, "\(again.stderr)")
        #expect(try await tool.store.keys().count == 2, "alice's account was updated, not duplicated")
        #expect(try await userInfoEmail(tool, []) == "alice@example.com")
        #expect(try await tool.run(["accounts", "default", "bob@example.com"]).status == 0)
        #expect(try await userInfoEmail(tool, []) == "bob@example.com")

        // Removing one account revokes it; the other keeps working.
        let bobKey = try #require(keys.first { $0 != "default" })
        let bobState = try #require(try await tool.store.load(key: bobKey))
        let logout = try await tool.run(["logout", "--account", "bob@example.com"])
        #expect(logout.status == 0, "\(logout.stderr)")
        #expect(try await tool.store.keys() == ["default"])
        #expect(try await userInfoEmail(tool, []) == "alice@example.com")
        let listing = try await tool.run(["accounts"])
        #expect(!listing.output.contains("bob@example.com"))
        #expect(!(logout.stderr + listing.output).contains(bobState.refreshToken?.value ?? "-"))
        // The server revoked bob's grant: his refresh token no longer works there.
        var refresh = URLRequest(url: try TestServer.url("/o/token/"))
        refresh.httpMethod = "POST"
        refresh.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let token = try #require(bobState.refreshToken?.value)
        refresh.httpBody = Data("grant_type=refresh_token&client_id=\(client)&refresh_token=\(token)".utf8)
        let (body, answer) = try await TestServer.transport.send(refresh)
        #expect(answer.statusCode == 400)
        #expect(String(decoding: body, as: UTF8.self).contains("invalid_grant"))
        let unknown = try await tool.run(["token", "--account", "bob@example.com"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("alice@example.com"))
    }
}
