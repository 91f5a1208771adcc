import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(CommandLine) @_spi(Migration) @testable import BearerCore

@Suite("login RESOURCE-URL --via PROFILE: an MCP session from another profile's identity provider")
struct LoginViaTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Profile work's session at the identity provider, with a current ID token.
    static func work() throws -> AuthState {
        var state = try CommandFixture.session(issuer: "https://idp.example.com")
        state.idToken = try IDToken(
            TestTokens.jwt([
                "iss": "https://idp.example.com", "sub": "ada", "aud": .string(state.client.id),
                "iat": .number(now.timeIntervalSince1970), "exp": .number(now.timeIntervalSince1970 + 300),
            ]))
        state.user = AuthState.User(subject: "ada", email: "ada@example.com")
        return state
    }

    static func assertion() -> String {
        TestTokens.jwt(
            [
                "iss": "https://idp.example.com", "sub": "ada", "aud": "https://mcp-auth.example.com",
                "client_id": "enterprise", "jti": "j1", "resource": "https://mcp.example.com/mcp",
                "iat": .number(now.timeIntervalSince1970), "exp": .number(now.timeIntervalSince1970 + 300),
            ], type: "oauth-id-jag+jwt")
    }

    static let replies: [RecordingTransport.Reply] = [
        .json(
            200,
            #"{"resource":"https://mcp.example.com/mcp","authorization_servers":["https://mcp-auth.example.com"],"scopes_supported":["mcp:read"]}"#
        ),
        .json(
            200,
            #"{"issuer":"https://mcp-auth.example.com","authorization_endpoint":"https://mcp-auth.example.com/authorize","token_endpoint":"https://mcp-auth.example.com/token","grant_types_supported":["urn:ietf:params:oauth:grant-type:jwt-bearer"]}"#
        ),
        .json(
            200,
            #"{"access_token":"\#(assertion())","issued_token_type":"urn:ietf:params:oauth:token-type:id-jag","token_type":"N_A","expires_in":300}"#
        ),
        .json(200, #"{"access_token":"mcp-token-1","token_type":"Bearer","expires_in":3600,"scope":"mcp:read"}"#),
    ]

    @Test("The resource's session comes from work's ID token through an ID-JAG, and logout of work ends it")
    func loginVia() async throws {
        let fixture = CommandFixture(replies: Self.replies)
        defer { fixture.removeAll() }
        try await fixture.store.save(try Self.work(), key: "work")
        let secret = try fixture.file("secret", Data("enterprise-secret\n".utf8))
        let (status, output) = await fixture.run([
            "login", "https://mcp.example.com/mcp", "--via", "work", "--client-id", "enterprise",
            "--client-secret-file", secret, "--profile", "mcp",
        ])
        #expect(status == 0, "\(output.stderr)")
        let requests = await fixture.transport.requests
        #expect(requests.count == 4)
        #expect(requests[2].url.absoluteString == "https://idp.example.com/token")
        #expect(requests[2].formBody["requested_token_type"] == "urn:ietf:params:oauth:token-type:id-jag")
        #expect(requests[3].url.absoluteString == "https://mcp-auth.example.com/token")
        #expect(requests[3].formBody["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer")
        #expect(requests[3].formBody["client_id"] == "enterprise", "beside HTTP Basic, as the MCP SDK requires")
        #expect(requests[3].headerFields["Authorization"]?.hasPrefix("Basic ") == true)
        #expect(requests[3].formBody["scope"] == "mcp:read", "the scopes the resource lists")
        let saved = try #require(try await fixture.store.load(key: "mcp"))
        #expect(saved.derivation?.parentKey == "work")
        #expect(saved.resource?.description == "https://mcp.example.com/mcp")
        #expect(!output.stdout.contains("mcp-token-1") && !output.stderr.contains("mcp-token-1"))

        let token = await fixture.run(["token", "--profile", "mcp"])
        #expect(token.status == 0)
        #expect(token.output.stdout.contains("mcp-token-1"))

        // Signing out of work disconnects the profile derived from it.
        for _ in 0..<3 { await fixture.transport.enqueue(.json(200, "{}")) }
        let logout = await fixture.run(["logout", "--profile", "work"])
        #expect(logout.status == 0, "\(logout.output.stderr)")
        #expect(logout.output.stderr.contains("profile mcp too"), "\(logout.output.stderr)")
        #expect(try await fixture.store.load(key: "mcp") == nil)
    }

    @Test("--via is refused without a resource URL, without --client-id, or naming the same profile")
    func usage() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        for arguments in [
            ["login", "--via", "work", "--issuer", "https://idp.example.com", "--client-id", "c", "--scope", "openid"],
            ["login", "https://mcp.example.com/mcp", "--via", "work"],
            ["login", "https://mcp.example.com/mcp", "--via", "work", "--client-id", "c", "--profile", "work"],
            ["login", "https://mcp.example.com/mcp", "--via", "work", "--client-id", "c", "--device"],
            ["login", "https://mcp.example.com/mcp", "--via", "work", "--client-id", "c", "--client-key-file", "/k"],
            ["login", "--profile", "work+derived-0123456789abcdef", "https://mcp.example.com/mcp"],
        ] {
            let (status, output) = await fixture.run(arguments)
            #expect(status == 64, "\(arguments): \(output.stderr)")
        }
        #expect(await fixture.transport.requests.isEmpty)
    }
}

extension TransportRequest {
    /// The form body as a dictionary.
    fileprivate var formBody: [String: String] {
        let text = body.map { String(decoding: $0, as: UTF8.self) } ?? ""
        return Dictionary(FormEncoding.decodePairs(text).map { ($0.name, $0.value) }) { _, last in last }
    }
}
