import Bearer
import Foundation
import Testing

@testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Resource-first sessions (the MCP authorization profile) against PyPI `mcp`'s own authorization
/// server and resource routes, with a provider that checks RFC 8707 strictly: Bearer is given only
/// the resource's URL.
@Suite(
    "End to end: resource-first sessions against PyPI mcp",
    .enabled(if: MCPAuthorization.isConfigured, MCPAuthorization.skipReason))
struct ResourceEndToEndTests {
    static let identity = ClientIdentity(name: "Bearer end-to-end")

    /// Signs in to `server`'s resource with a new loopback agent on `port`.
    func signIn(
        _ server: MCPAuthorization,
        store: any SessionStore,
        port: UInt16 = 0,
        identity: ClientIdentity = identity,
        transport: any HTTPTransport = TestServer.transport
    ) async throws -> AuthSession {
        try await AuthSession.signIn(
            toResource: server.resource, as: identity, using: try MCPAuthorization.agent(port: port), store: store,
            allowingInsecureLoopback: true, transport: transport)
    }

    @Test("Discovery from the 401, registration, sign-in and refresh naming the resource; its token goes nowhere else")
    func discoverRegisterSignInRefresh() async throws {
        let server = try await MCPAuthorization()
        let store = InMemorySessionStore()
        let transport = ObservingTransport()
        let session = try await signIn(server, store: store, transport: transport)
        let state = await session.state
        #expect(state.resource?.description == server.resource.absoluteString)
        #expect(state.server.issuer == server.issuer)
        #expect(state.grantedScopes == ["mcp:read"], "the resource's scopes_supported")
        #expect(state.refreshToken != nil)

        let log = try await server.log()
        #expect(log.map(\.path) == ["/register", "/authorize", "/token"])
        #expect(log[0].status == 201 && !log[0].formKeys.contains("token_endpoint_auth_method"))
        #expect(log[0].formKeys.contains("application_type"))
        #expect(log[1].resource == server.resource.absoluteString && log[1].status == 302)
        #expect(log[2].grantType == "authorization_code" && log[2].resource == server.resource.absoluteString)
        #expect(log[2].status == 200)
        let requested = await transport.exchanges.map(\.path)
        #expect(requested.first == "/mcp", "the resource was asked first, without a token, for its 401")
        #expect(requested.contains("/.well-known/oauth-protected-resource/mcp"))
        #expect(requested.contains("/.well-known/oauth-authorization-server"))

        let whoami = try await session.data(for: TransportRequest(url: try server.resource("/whoami")))
        #expect(whoami.status == 200)
        let seen = try JSONDecoder().decode([String: JSONValue].self, from: whoami.body)
        #expect(seen["resource"] == .string(server.resource.absoluteString))

        // Another resource is refused before anything is sent; by hand, that resource refuses the token.
        let elsewhere = try #require(URL(string: server.otherResource.absoluteString + "/whoami"))
        let before = await transport.exchanges.count
        let refusal = await #expect(throws: BearerError.self) {
            try await session.data(for: TransportRequest(url: elsewhere))
        }
        #expect(refusal?.kind == .resourceMismatch)
        #expect(await transport.exchanges.count == before, "nothing was sent to the other resource")
        var byHand = URLRequest(url: elsewhere)
        byHand.setValue("Bearer " + (try await session.validAccessToken().value), forHTTPHeaderField: "Authorization")
        let (_, answer) = try await TestServer.transport.send(byHand)
        #expect(answer.statusCode == 401, "the other resource checks the audience")

        let refreshed = try await session.refresh()
        #expect(refreshed.refreshToken != state.refreshToken, "the provider rotates refresh tokens")
        let refresh = try #require(try await server.log().last)
        #expect(refresh.grantType == "refresh_token" && refresh.status == 200)
        #expect(refresh.resource == server.resource.absoluteString, "the refresh names the resource")
        #expect(try await session.data(for: TransportRequest(url: try server.resource("/whoami"))).status == 200)
        #expect(
            try await AuthSession.restore(resource: server.resource, from: store, transport: TestServer.transport)?
                .state
                == refreshed)
    }

    @Test("A 403 insufficient_scope steps up once, keeping the granted scope, for the same resource")
    func stepUp() async throws {
        let server = try await MCPAuthorization()
        let store = InMemorySessionStore()
        let agent = try MCPAuthorization.agent()
        let session = try await AuthSession.signIn(
            toResource: server.resource, as: Self.identity, using: agent, store: store,
            allowingInsecureLoopback: true, transport: TestServer.transport)
        let admin = TransportRequest(url: try server.resource("/admin"))
        let refused = await #expect(throws: OAuthError.self) { try await session.data(for: admin) }
        #expect(refused?.code == .insufficientScope)

        let answer = try await session.data(for: admin, steppingUpWith: agent)
        #expect(answer.status == 200)
        let state = await session.state
        #expect(Set(state.grantedScopes) == ["mcp:read", "mcp:admin"])
        #expect(state.resource?.description == server.resource.absoluteString)
        let log = try await server.log()
        #expect(log.filter { $0.path == "/authorize" }.count == 2, "one sign-in and one step-up")
        #expect(log.filter { $0.path == "/register" }.count == 1, "the step-up used the same client")
        #expect(log.filter { $0.path == "/token" }.allSatisfy { $0.resource == server.resource.absoluteString })
        #expect(
            try await AuthSession.restore(resource: server.resource, from: store, transport: TestServer.transport)?
                .state
                == state)
    }

    @Test("The registration is kept in the store and reused; a second process restores the session by resource")
    func registrationReusedAndRestored() async throws {
        let server = try await MCPAuthorization()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-mcp-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileSessionStore(directory: directory)
        _ = try await signIn(server, store: store, port: 18191)
        let again = try await signIn(server, store: store, port: 18191)
        var log = try await server.log()
        #expect(log.filter { $0.path == "/register" }.count == 1, "the second sign-in reused the registration")
        #expect(Set(log.compactMap(\.clientID)).count == 1)
        let accounts = try await AuthSession.savedAccounts(in: store)
        #expect(accounts.count == 1, "the registration is kept beside the session, not listed as one")

        // Another port is another redirect URI, which the server compares exactly: a new registration.
        _ = try await signIn(server, store: store, port: 18192)
        log = try await server.log()
        #expect(log.filter { $0.path == "/register" }.count == 2)

        let spelled = try #require(
            URL(
                string: server.resource.absoluteString.uppercased().replacingOccurrences(
                    of: "HTTP://", with: "http://"
                ).replacingOccurrences(of: "/MCP", with: "/mcp/")))
        let restored = try #require(
            try await AuthSession.restore(
                resource: spelled, from: FileSessionStore(directory: directory),
                transport: TestServer.transport))
        #expect(await restored.state.resource == again.state.resource)
        #expect(try await restored.data(for: TransportRequest(url: try server.resource("/whoami"))).status == 200)
    }

    @Test("A Client ID Metadata Document is the client where the server reads them; nothing is registered")
    func clientIDMetadataDocument() async throws {
        let server = try await MCPAuthorization(arguments: ["--cimd"])
        let redirect = "http://127.0.0.1:18193/callback"
        let url = try #require(URL(string: server.documents.absoluteString + "/bearer.json"))
        let document = try await server.publish(
            [
                "client_id": .string(url.absoluteString), "client_name": "Bearer end-to-end",
                "redirect_uris": [.string(redirect)], "token_endpoint_auth_method": "none",
            ], as: "bearer.json")
        let session = try await signIn(
            server, store: InMemorySessionStore(), port: 18193,
            identity: ClientIdentity(name: "Bearer end-to-end", metadataDocument: document))
        #expect(await session.state.client.id == document.absoluteString)
        let log = try await server.log()
        #expect(!log.contains { $0.path == "/register" })
        #expect(log.filter { $0.path == "/token" }.allSatisfy { $0.clientID == document.absoluteString })
    }
}
