import Bearer
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The tool's sign-ins beyond the browser's happy path: the loopback listener's edge cases, its
/// time-out, an http issuer, the device flow, and add-scopes.
extension CommandLineEndToEndTests {
    @Test("The listener ignores other paths, answers POST with 400, survives a hang-up, then takes the redirect")
    func listenerEdgeCases() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        let running = try tool.start([
            "login", "--issuer", try issuer(), "--allow-insecure-loopback", "--client-id", client, "--scope",
            "openid email",
            "--no-open", "--timeout", "60",
        ])
        let text = try await running.waitForStderr(containing: "press Ctrl-C")
        let authorizeURL = try #require(
            text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("http") }
        )
        let callback = try #require(
            text.firstMatch(of: /(http:\/\/127\.0\.0\.1:\d+)\/callback/).map { String($0.output.1) }
        )

        let favicon = try await TestServer.transport.send(
            URLRequest(url: try #require(URL(string: callback + "/favicon.ico"))))
        #expect(favicon.1.statusCode == 404)
        var post = URLRequest(url: try #require(URL(string: callback + "/callback?code=x&state=y")))
        post.httpMethod = "POST"
        #expect(try await TestServer.transport.send(post).1.statusCode == 400)
        try RawConnection.connectAndHangUp(to: callback)

        let page = try await Browser.authorizeAsAlice(authorizeURL)
        #expect(page.contains("close this tab"))
        #expect(!page.contains("code"))
        let result = await running.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Signed in as alice@example.com"))
    }

    @Test("The listener gives up after --timeout with a clear message")
    func listenerTimeout() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        let result = try await tool.run([
            "login", "--issuer", try issuer(), "--allow-insecure-loopback", "--client-id", client, "--scope", "email",
            "--no-open", "--timeout", "1",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("No answer came from the browser in time"))
        #expect(try await tool.store.load(key: "default") == nil)
    }

    @Test("An http issuer is refused without --allow-insecure-loopback")
    func insecureIssuerRefused() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        let result = try await tool.run(["login", "--issuer", try issuer(), "--client-id", client, "--scope", "email"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--allow-insecure-loopback"))
    }

    @Test("The device flow: code printed, approved with form posts, session saved; denial is reported")
    func deviceFlow() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        for approve in [true, false] {
            let running = try tool.start([
                "login", "--device", "--issuer", try issuer(), "--allow-insecure-loopback", "--client-id",
                "bearer-device",
                "--scope", "openid email drive.readonly", "--no-open",
            ])
            let text = try await running.waitForStderr(containing: "enter the code")
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let index = try #require(lines.firstIndex { $0.contains("enter the code") })
            let userCode = try #require(lines.dropFirst(index + 1).first)
            _ = try await running.waitForStderr(containing: "Waiting for approval")
            try await Browser.approveDevice(userCode: userCode, approve: approve)
            let result = await running.finish()
            if approve {
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stderr.contains("Signed in as alice@example.com"))
                let token = try await tool.run(["token"])
                #expect(token.status == 0)
            } else {
                #expect(result.status == 1)
                #expect(result.stderr.contains("access_denied"))
            }
        }
    }

    @Test("add-scopes upgrades the session through the browser; asking again is a no-op")
    func addScopes() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        #expect(try await login(tool, scope: "openid email").status == 0)
        let add = try await tool.run(["add-scopes", "drive.readonly", "--open-with", try Browser.command])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stderr.contains("include_granted_scopes=true"))
        #expect(add.stderr.contains("login_hint=alice%40example.com"))
        let curl = try await tool.run(["curl", try TestServer.url("/drive/v3/about?fields=user").absoluteString])
        #expect(curl.status == 0)
        let again = try await tool.run(["add-scopes", "email", "drive.readonly"])
        #expect(again.status == 0)
        #expect(again.stderr.contains("already granted"))
    }
}
