import Bearer
import BearerTestSupport
import Foundation
import Testing

@testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Signing in to a protected resource knowing only its URL, against a fake MCP server and its
/// authorization server: what is asked and sent, what is saved, and where the tokens may go.
@Suite("Protected resources: signing in")
struct ResourceSignInTests {
    @Test("The resource's 401 leads to its metadata, its server and a registration; every step names the resource")
    func wholeSignIn() async throws {
        let store = InMemorySessionStore()
        let transport = await ResourceWorld.transport()
        let agent = RedirectingAgent()
        let session = try await ResourceWorld.signIn(transport, store: store, agent: agent)

        let requests = await transport.requests
        #expect(
            requests.map(\.url.absoluteString) == [
                ResourceWorld.resource, ResourceWorld.resourceMetadata, ResourceWorld.serverMetadata,
                ResourceWorld.register, ResourceWorld.token,
            ])
        #expect(requests[0].method == .get && requests[0].headerFields["Authorization"] == nil)

        #expect(agent.presented.count == 1)
        let presented = try #require(agent.presented.first)
        #expect(presented.additionalParameters["resource"] == ResourceWorld.resource)
        let query = URLComponents(url: presented.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(query.filter { $0.name == "resource" }.map(\.value) == [ResourceWorld.resource])
        #expect(presented.url.absoluteString.hasPrefix(ResourceWorld.issuer + "/authorize?"))
        #expect(presented.client.id == "dyn-1")
        #expect(presented.redirectURI.absoluteString == ResourceWorld.redirectURI)
        #expect(presented.scopes == ["tools.read"], "the challenge's scope")

        let exchange = requests[4]
        #expect(exchange.formBody["grant_type"] == "authorization_code")
        #expect(exchange.formBody["code"] == "code-1")
        #expect(exchange.formBody["resource"] == ResourceWorld.resource)
        #expect(exchange.formBody["client_id"] == "dyn-1")

        let state = await session.state
        #expect(state.resource?.description == ResourceWorld.resource)
        #expect(state.server.issuer.absoluteString == ResourceWorld.issuer)
        #expect(state.accessToken?.value == "at-1")
        #expect(session.key.hasPrefix("bearer-resource-"))
        let saved = try #require(try await store.load(key: session.key))
        #expect(saved == state)
        #expect(saved.resource == state.resource)
    }

    @Test("restore(resource:) finds the session from any spelling of the resource, and nothing for another")
    func restoreByResource() async throws {
        let store = InMemorySessionStore()
        let transport = await ResourceWorld.transport()
        let session = try await ResourceWorld.signIn(transport, store: store)
        for spelling in [
            ResourceWorld.resource, "https://MCP.EXAMPLE.COM/mcp", "https://mcp.example.com/mcp/",
            "HTTPS://mcp.example.com:443/mcp/",
        ] {
            let restored = try await AuthSession.restore(
                resource: Fixtures.url(spelling), from: store, transport: transport, clock: .fixed(Fixtures.epoch))
            #expect(restored?.key == session.key, "\(spelling)")
            #expect(await restored?.state.accessToken?.value == "at-1", "\(spelling)")
        }
        for other in ["https://mcp.example.com/other", "https://mcp.example.com", "https://mcp.example.com:8443/mcp"] {
            let restored = try await AuthSession.restore(
                resource: Fixtures.url(other), from: store, transport: transport, clock: .fixed(Fixtures.epoch))
            #expect(restored == nil, "\(other)")
        }
    }

    @Test("A refresh of a restored resource session names the resource, and the session keeps it")
    func refreshNamesResource() async throws {
        let store = InMemorySessionStore()
        let transport = await ResourceWorld.transport(
            tokens: [ResourceWorld.tokens(), ResourceWorld.tokens("at-2", refresh: "rt-2")])
        _ = try await ResourceWorld.signIn(transport, store: store)
        let restored = try #require(
            try await AuthSession.restore(
                resource: Fixtures.url(ResourceWorld.resource), from: store, transport: transport,
                clock: .fixed(Fixtures.epoch)))
        let refreshed = try await restored.refresh()
        #expect(refreshed.accessToken?.value == "at-2")
        #expect(refreshed.resource?.description == ResourceWorld.resource)
        let exchanges = await transport.requests(to: ResourceWorld.token)
        #expect(exchanges.count == 2)
        let refresh = try #require(exchanges.last)
        #expect(refresh.formBody["grant_type"] == "refresh_token")
        #expect(refresh.formBody["refresh_token"] == "rt-1")
        #expect(refresh.formBody["resource"] == ResourceWorld.resource)
        #expect(try await store.load(key: restored.key)?.resource?.description == ResourceWorld.resource)
    }

    @Test("A request outside the resource is refused as resourceMismatch and never sent; one inside carries the token")
    func tokensStayWithResource() async throws {
        let transport = await ResourceWorld.transport()
        let tools = "https://mcp.example.com/mcp/tools"
        await transport.route(tools, .json(200, #"{"tools":[]}"#))
        let session = try await ResourceWorld.signIn(transport, store: InMemorySessionStore())
        let sentBefore = await transport.requests.count

        let outside = [
            "https://mcp.example.com/admin", "https://mcp.example.com/mcpx", "https://api.example.com/mcp",
            "https://mcp.example.com:8443/mcp",
        ]
        for url in outside {
            let error = await #expect(throws: BearerError.self, "\(url)") {
                try await session.data(for: TransportRequest(url: Fixtures.url(url)))
            }
            #expect(error?.kind == .resourceMismatch, "\(url)")
            let stamped = await #expect(throws: BearerError.self, "\(url)") {
                try await session.authorize(TransportRequest(url: Fixtures.url(url)))
            }
            #expect(stamped?.kind == .resourceMismatch, "\(url)")
            #expect(await transport.requests(to: url).isEmpty, "\(url)")
        }
        #expect(await transport.requests.count == sentBefore, "nothing was sent anywhere")

        let answer = try await session.data(for: TransportRequest(url: Fixtures.url(tools)))
        #expect(answer.status == 200)
        let sent = try #require(await transport.requests(to: tools).first)
        #expect(sent.headerFields["Authorization"] == "Bearer at-1")
    }

    @Test("A metadata document naming another resource stops the sign-in before its servers are asked")
    func otherResourceStopsSignIn() async throws {
        let store = InMemorySessionStore()
        let transport = await ResourceWorld.transport(
            resourceDocument: ResourceWorld.resourceDocument(
                resource: "https://evil.example.com/mcp", servers: ["https://as.evil.example"]))
        let agent = RedirectingAgent()
        let error = await #expect(throws: BearerError.self) {
            try await ResourceWorld.signIn(transport, store: store, agent: agent)
        }
        #expect(error?.kind == .resourceMismatch)
        let hosts = await transport.requests.map { $0.url.host ?? "" }
        #expect(hosts == ["mcp.example.com", "mcp.example.com"])
        #expect(!hosts.contains("as.evil.example"))
        #expect(agent.presented.isEmpty)
        #expect(try await store.keys().isEmpty)
    }

    @Test("A server whose metadata names another issuer stops the sign-in before registering")
    func otherIssuerStopsSignIn() async throws {
        let transport = await ResourceWorld.transport(
            serverDocument: ResourceWorld.serverDocument(issuer: "https://as.evil.example"))
        let agent = RedirectingAgent()
        let error = await #expect(throws: BearerError.self) {
            try await ResourceWorld.signIn(transport, store: InMemorySessionStore(), agent: agent)
        }
        #expect(error?.kind == .issuerMismatch)
        #expect(await transport.requests(to: ResourceWorld.register).isEmpty)
        #expect(agent.presented.isEmpty)
    }

    @Test("savedAccounts lists the resource's session but not the registration kept beside it")
    func savedAccountsSkipRegistration() async throws {
        let store = InMemorySessionStore()
        let session = try await ResourceWorld.signIn(await ResourceWorld.transport(), store: store)
        let keys = try await store.keys()
        #expect(keys.count == 2)
        #expect(keys.contains(session.key))
        #expect(keys.contains { $0.hasPrefix("bearer-registration-") })
        let accounts = try await AuthSession.savedAccounts(in: store)
        #expect(accounts.map(\.key) == [session.key])
        #expect(accounts.first?.grantedScopes == ["tools.read"])
    }
}
