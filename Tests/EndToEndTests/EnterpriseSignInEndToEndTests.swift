import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Testing) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// MCP's enterprise-managed authorization end to end: alice signs in at idpyoidc 5.0.0 (the
/// company's identity provider, whose wrapper issues ID-JAGs), and PyPI `mcp` 2.3.0's
/// authorization server takes the ID-JAG in its own JWT-bearer grant, verified against
/// idpyoidc's published keys; the MCP resource then answers as the
/// subject of alice's ID token.
@Suite(
    "End to end: enterprise sign-in to an MCP server through idpyoidc's ID-JAG", .serialized,
    .enabled(if: Idpyoidc.isConfigured && MCPAuthorization.isConfigured, Idpyoidc.skipReason))
final class EnterpriseSignInEndToEndTests {
    @Test("An ID-JAG from alice's sign-in gives an MCP session, made again from a new ID-JAG when refreshed")
    func enterpriseSignIn() async throws {
        let idp = try await ServerScript(
            "idpyoidc/server.py", python: try Idpyoidc.interpreter(),
            arguments: ["--fill-outer-parameters", "--issue-refresh", "--token-exchange", "--issue-id-jag"])
        defer { idp.stop() }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("enterprise-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let secret = TestTokens.random("mcp-secret")
        let secretFile = root.appendingPathComponent("secret")
        try Data((secret + "\n").utf8).write(to: secretFile)
        let mcp = try await MCPAuthorization(arguments: [
            "--identity-assertion-jwks", idp.base.appendingPathComponent("jwks").absoluteString,
            "--identity-assertion-issuer", idp.base.absoluteString,
            "--identity-assertion-client-secret-file", secretFile.path,
        ])

        let store = InMemorySessionStore()
        let server = try await Idpyoidc.server(at: idp.base)
        let key = try await PlatformDPoPKeys().makeKey()
        let client = try await Idpyoidc.register(key, at: server)
        let configuration = Idpyoidc.configuration(key, requestObjects: .never, pushing: .never)
        _ = try await AuthSession.signIn(
            to: server, as: client, scopes: ["openid", "email"], using: DirectRedirectAgent(), store: store,
            key: "work", transport: TestServer.transport, configuration: configuration)

        let resource = try ProtectedResource(mcp.resource, allowingInsecureLoopback: true)
        let discovery = AuthorizationServerClient(transport: TestServer.transport)
        let metadata = try await discovery.discover(resource: resource, allowingInsecureLoopback: true)
        let mcpServer = try await discovery.discoverAuthorizationServer(of: metadata, allowingInsecureLoopback: true)
        let session = try await AuthSession.derive(
            .identityAssertion(from: "work", scopes: ["mcp:read"]), at: mcpServer,
            as: Client(id: "mcp-enterprise-client", secret: ClientSecret(secret), authentication: .clientSecretBasic),
            resource: resource, store: store,
            transport: TestServer.transport, configuration: configuration)
        let whoami = try await session.data(for: TransportRequest(url: try mcp.resource("/whoami")))
        #expect(whoami.status == 200)
        let answer = try JSONDecoder().decode([String: JSONValue].self, from: whoami.body)
        let subject = try #require(try await store.load(key: "work")?.user?.subject)
        #expect(answer["subject"]?.stringValue == subject, "the MCP server knows the user the identity provider named")
        #expect(await session.state.resource == resource)

        // No refresh token (the SDK issues none for ID-JAGs): a refresh asks for a new ID-JAG.
        #expect(await session.state.refreshToken == nil)
        let before = try #require(await session.state.accessToken)
        let again = try await session.refresh()
        #expect(again.accessToken != before)
        let grants = try await mcp.log().filter { $0.grantType == "urn:ietf:params:oauth:grant-type:jwt-bearer" }
        #expect(grants.map(\.status) == [200, 200])
        #expect(grants.allSatisfy { $0.resource == mcp.resource.absoluteString })

        // A client the MCP server does not know gets nothing, and nothing is saved for it.
        let error = await #expect(throws: OAuthError.self) {
            _ = try await AuthSession.derive(
                .identityAssertion(from: "work", scopes: ["mcp:read"]), at: mcpServer,
                as: Client(
                    id: "mcp-enterprise-client", secret: ClientSecret("wrong"), authentication: .clientSecretBasic),
                resource: resource,
                store: InMemorySessionStore.copying(try #require(try await store.load(key: "work")), key: "work"),
                transport: TestServer.transport, configuration: configuration)
        }
        #expect(error?.code == .invalidClient)
    }
}

extension InMemorySessionStore {
    /// A store holding `state` under `key`.
    static func copying(_ state: AuthState, key: String) async throws -> InMemorySessionStore {
        let store = InMemorySessionStore()
        try await store.save(state, key: key)
        return store
    }
}
