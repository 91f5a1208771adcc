import Bearer
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `bearer login --no-browser` against the real server, with the headless browser as the browser
/// of another machine: its redirect to 127.0.0.1 is printed, not followed, and pasted back, as a
/// person would paste the address that failed to load.
@Suite(
    "End to end: sign-in with a pasted address", .serialized,
    .enabled(if: TestServer.isConfigured, TestServer.skipReason))
struct PastedSignInEndToEndTests {
    /// Used by this suite only, so the server's count of its token requests is this suite's.
    private let client = "bearer-cli-solo"

    private func start(_ tool: BearerTool) throws -> ChildProcess {
        try tool.start(
            [
                "login", "--issuer", try TestServer.issuer.absoluteString, "--allow-insecure-loopback",
                "--client-id", client, "--scope", "openid email drive.readonly", "--no-browser",
            ],
            input: true
        )
    }

    /// The authorization URL the tool printed, and the redirect the other machine's browser got.
    private func signInElsewhere(_ login: ChildProcess) async throws -> URL {
        let text = try await login.waitForStderr(containing: "Paste that whole address")
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let index = try #require(lines.firstIndex { $0.hasPrefix("Open this URL in a browser on any machine") })
        let url = try #require(URL(string: lines[index + 1]))
        return try await Browser.authorize(url)
    }

    private func exchanges() async throws -> Int {
        try await TestServer.tokenRequestCount(client: client)
    }

    @Test("A foreign address and one with another state are refused, nothing exchanged; the real one signs in")
    func refusesThenSignsIn() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        let before = try await exchanges()
        let login = try start(tool)
        let redirect = try await signInElsewhere(login)

        login.write(line: "https://attacker.example/callback?code=stolen&state=guessed")
        _ = try await login.waitForStderr(containing: "That address is not this sign-in's redirect")
        var other = try #require(URLComponents(url: redirect, resolvingAgainstBaseURL: false))
        other.queryItems = other.queryItems?.map {
            $0.name == "state" ? URLQueryItem(name: "state", value: "another") : $0
        }
        login.write(line: try #require(other.url).absoluteString)
        _ = try await login.waitForStderr(containing: "belongs to another sign-in")
        login.write(line: "not an address at all")
        let refused = try await login.waitForStderr(containing: "That is not an address")
        #expect(refused.contains("http://127.0.0.1:"))
        #expect(try await exchanges() == before, "a refused paste must not be exchanged")

        login.write(line: redirect.absoluteString)
        let result = await login.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Received the pasted address"))
        #expect(result.stderr.contains("Signed in as alice@example.com"))
        #expect(!result.stderr.contains("stolen"), "pasted text is never repeated")
        #expect(try await exchanges() == before + 1)

        // The listener closed when the paste won: the same answer through a port forward is refused.
        await #expect(throws: (any Error).self) { try await TestServer.transport.send(URLRequest(url: redirect)) }
        let token = try await tool.run(["token"])
        let (status, _, _) = try await TestServer.driveAbout(
            token: AccessToken(token.output.trimmingCharacters(in: .newlines)))
        #expect(status == 200)
    }

    @Test("When the browser reaches the listener first, that answer wins and the paste is not used")
    func listenerFirst() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        let before = try await exchanges()
        let login = try start(tool)
        let redirect = try await signInElsewhere(login)

        // The browser of the other machine, through `ssh -L PORT:127.0.0.1:PORT`.
        let (_, response) = try await TestServer.transport.send(URLRequest(url: redirect))
        #expect(response.statusCode == 200)
        _ = try await login.waitForStderr(containing: "reached the listener")
        login.write(line: redirect.absoluteString)
        let result = await login.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("Received the pasted address"))
        #expect(try await exchanges() == before + 1, "one answer, one exchange")
    }

    @Test("token --min-lifetime: a token that qualifies without a refresh, one that is refreshed, and a refusal")
    func minimumLifetime() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        let login = try start(tool)
        login.write(line: try await signInElsewhere(login).absoluteString)
        #expect(await login.finish().status == 0)
        let before = try await exchanges()

        let qualifying = try await tool.run(["token", "--min-lifetime", "600"])
        #expect(qualifying.status == 0, "\(qualifying.stderr)")
        #expect(try await exchanges() == before, "a token with an hour left needs no refresh")

        // Two minutes left: enough for `token`, not for a ten-minute job.
        var state = try #require(try await tool.store.load(key: "default"))
        state.accessTokenExpiresAt = Date().addingTimeInterval(120)
        try await tool.store.save(state, key: "default")
        #expect(try await tool.run(["token"]).output == qualifying.output)
        let refreshed = try await tool.run(["token", "--min-lifetime", "600"])
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        #expect(refreshed.output != qualifying.output)
        #expect(try await exchanges() == before + 1)
        let token = AccessToken(refreshed.output.trimmingCharacters(in: .newlines))
        #expect(try await TestServer.driveAbout(token: token).0 == 200)

        // The server's tokens live an hour.
        let tooLong = try await tool.run(["token", "--min-lifetime", "7200"])
        #expect(tooLong.status == 1)
        #expect(tooLong.stdout.isEmpty)
        #expect(tooLong.stderr.contains("live 3600 s") && tooLong.stderr.contains("7200 s"), "\(tooLong.stderr)")
        #expect(
            try await exchanges() == before + 1,
            "the last refresh showed the server's lifetime: no refresh is spent on a token that cannot qualify")
    }
}
