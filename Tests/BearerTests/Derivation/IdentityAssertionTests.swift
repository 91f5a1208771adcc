import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Internals) @_spi(Migration) @testable import BearerCore

@Suite("MCP enterprise-managed authorization: an ID-JAG from the identity provider, then the JWT-bearer grant")
struct IdentityAssertionTests {
    static let mcpServer = AuthorizationServer(
        issuer: Fixtures.url("https://mcp-auth.example.com"),
        authorizationEndpoint: Fixtures.url("https://mcp-auth.example.com/authorize"),
        tokenEndpoint: Fixtures.url("https://mcp-auth.example.com/token"))
    static let mcpClient = Client(id: "mcp-client", secret: ClientSecret("mcp-secret"), redirectURI: nil)
    static func resource() throws -> ProtectedResource {
        try ProtectedResource(Fixtures.url("https://mcp.example.com/mcp"))
    }

    static func assertion(
        type: String = "oauth-id-jag+jwt", audience: String = "https://mcp-auth.example.com",
        clientID: String = "mcp-client", expiresIn: TimeInterval = 300, resource: String = "https://mcp.example.com/mcp"
    ) -> String {
        TestTokens.jwt(
            [
                "iss": .string(Fixtures.issuer), "sub": .string("ada"), "aud": .string(audience),
                "client_id": .string(clientID), "jti": .string(UUID().uuidString), "resource": .string(resource),
                "iat": .number(DerivedSessionTests.now.timeIntervalSince1970),
                "exp": .number(DerivedSessionTests.now.timeIntervalSince1970 + expiresIn),
            ], type: type)
    }

    static func issued(_ assertion: String, type: String = "urn:ietf:params:oauth:token-type:id-jag")
        -> RecordingTransport.Reply
    {
        .json(
            200, #"{"access_token":"\#(assertion)","issued_token_type":"\#(type)","token_type":"N_A","expires_in":300}"#
        )
    }

    static func derive(store: any SessionStore, transport: RecordingTransport) async throws -> AuthSession {
        try await AuthSession.derive(
            .identityAssertion(from: "work", scopes: ["files:read"]), at: mcpServer, as: mcpClient,
            resource: try resource(), store: store, transport: transport, clock: .fixed(DerivedSessionTests.now))
    }

    @Test("The parent's ID token is exchanged at its server for an ID-JAG, which the MCP server's grant takes")
    func enterpriseSignIn() async throws {
        let store = InMemorySessionStore()
        let parent = try DerivedSessionTests.parent()
        try await store.save(parent, key: "work")
        let assertion = Self.assertion()
        let token = TestTokens.random("mcp")
        let transport = RecordingTransport(replies: [
            Self.issued(assertion),
            .json(200, #"{"access_token":"\#(token)","token_type":"Bearer","expires_in":3600}"#),
        ])
        let session = try await Self.derive(store: store, transport: transport)
        #expect(await transport.requests.count == 2)
        let exchange = await transport.requests[0].formBody
        #expect(await transport.requests[0].url == Fixtures.server.tokenEndpoint, "the identity provider exchanges")
        #expect(exchange["grant_type"] == "urn:ietf:params:oauth:grant-type:token-exchange")
        #expect(exchange["requested_token_type"] == "urn:ietf:params:oauth:token-type:id-jag")
        #expect(exchange["subject_token"] == parent.idToken?.value)
        #expect(exchange["subject_token_type"] == "urn:ietf:params:oauth:token-type:id_token")
        #expect(exchange["audience"] == "https://mcp-auth.example.com")
        #expect(exchange["resource"] == "https://mcp.example.com/mcp")
        #expect(exchange["client_id"] == Fixtures.publicClient.id, "as the parent's client")
        let grant = await transport.requests[1]
        #expect(grant.url == Self.mcpServer.tokenEndpoint)
        #expect(grant.formBody["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer")
        #expect(grant.formBody["assertion"] == assertion)
        #expect(grant.formBody["scope"] == "files:read")
        #expect(grant.headerFields["Authorization"]?.hasPrefix("Basic ") == true, "as the MCP server's client")
        let state = await session.state
        #expect(state.accessToken?.value == token)
        #expect(state.resource == (try Self.resource()))
        #expect(state.derivation?.method == .identityAssertion)
    }

    @Test(
        "An ID-JAG that is not one, or is for another server, client or resource, is never sent on",
        arguments: [
            ("audience", assertion(audience: "https://attacker.example.com")),
            ("client", assertion(clientID: "someone-else")),
            ("type", assertion(type: "JWT")),
            ("resource", assertion(resource: "https://other.example.com/mcp")),
            ("expired", assertion(expiresIn: -3600)),
            ("not a JWT", "opaque-token"),
        ])
    func hostileAssertions(what: String, assertion: String) async throws {
        let store = InMemorySessionStore()
        try await store.save(try DerivedSessionTests.parent(), key: "work")
        let transport = RecordingTransport(replies: [Self.issued(assertion)])
        let error = await #expect(throws: BearerError.self, "\(what)") {
            _ = try await Self.derive(store: store, transport: transport)
        }
        #expect(error?.kind == .invalidResponse)
        #expect(await transport.requests.count == 1, "nothing reaches the MCP server")
        #expect(try await store.keys() == ["work"])
    }

    @Test("An identity provider that answers another token type than an ID-JAG is refused")
    func wrongIssuedType() async throws {
        let store = InMemorySessionStore()
        try await store.save(try DerivedSessionTests.parent(), key: "work")
        let transport = RecordingTransport(replies: [
            Self.issued(Self.assertion(), type: "urn:ietf:params:oauth:token-type:access_token")
        ])
        let error = await #expect(throws: BearerError.self) {
            _ = try await Self.derive(store: store, transport: transport)
        }
        #expect(error?.kind == .invalidResponse)
        #expect(await transport.requests.filter { $0.url == Self.mcpServer.tokenEndpoint }.isEmpty)
    }

    @Test("A parent whose ID token expired is refreshed for a new one first")
    func expiredIDToken() async throws {
        let store = InMemorySessionStore()
        try await store.save(try DerivedSessionTests.parent(idTokenExpiresIn: 30), key: "work")
        let newIDToken = TestTokens.jwt([
            "iss": .string(Fixtures.issuer), "sub": .string("ada"), "aud": .string(Fixtures.publicClient.id),
            "iat": .number(DerivedSessionTests.now.timeIntervalSince1970),
            "exp": .number(DerivedSessionTests.now.timeIntervalSince1970 + 3600),
        ])
        let transport = RecordingTransport(replies: [
            .json(
                200,
                #"{"access_token":"\#(TestTokens.random("p"))","token_type":"Bearer","expires_in":3600,"id_token":"\#(newIDToken)"}"#
            ),
            Self.issued(Self.assertion()),
            .json(200, #"{"access_token":"\#(TestTokens.random("mcp"))","token_type":"Bearer","expires_in":3600}"#),
        ])
        _ = try await Self.derive(store: store, transport: transport)
        #expect(await transport.requests[0].formBody["grant_type"] == "refresh_token")
        #expect(await transport.requests[1].formBody["subject_token"] == newIDToken)
    }
}
