import Bearer
import BearerTestSupport
import Foundation
import Testing

@testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Step-up authorization of a resource session: a `403 insufficient_scope` answered by asking once
/// for the scopes named, for the same resource, and sending the request again.
@Suite("Protected resources: step-up")
struct ResourceStepUpTests {
    static let tools = "https://mcp.example.com/mcp/tools"

    static func insufficientScope(_ scope: String?) -> RecordingTransport.Reply {
        let challenge = #"Bearer error="insufficient_scope""# + (scope.map { #", scope="\#($0)""# } ?? "")
        return .json(403, #"{"error":"insufficient_scope"}"#, headers: ["WWW-Authenticate": challenge])
    }

    /// A signed-in session granted `tools.read`, whose resource refuses `at-1` at ``tools`` with
    /// `refusal` and answers `at-2` with `accepted`.
    func signedIn(
        refusal: RecordingTransport.Reply,
        accepted: RecordingTransport.Reply = .json(200, #"{"tools":["search"]}"#),
        serverScopes: [String]? = ["tools.read", "tools.write"],
        stepUpScope: String = "a b tools.read"
    ) async throws -> (AuthSession, RoutedTransport, RedirectingAgent, InMemorySessionStore) {
        let transport = await ResourceWorld.transport(
            serverDocument: ResourceWorld.serverDocument(scopes: serverScopes),
            tokens: [ResourceWorld.tokens(), ResourceWorld.tokens("at-2", refresh: "rt-2", scope: stepUpScope)])
        await transport.route(Self.tools) { request in
            request.headerFields["Authorization"] == "Bearer at-2" ? accepted : refusal
        }
        let agent = RedirectingAgent()
        let store = InMemorySessionStore()
        let session = try await ResourceWorld.signIn(transport, store: store, agent: agent)
        return (session, transport, agent, store)
    }

    @Test("A 403 insufficient_scope asks once for the granted and named scopes for the resource, then resends once")
    func stepUp() async throws {
        let (session, transport, agent, store) = try await signedIn(refusal: Self.insufficientScope("a b"))
        let answer = try await session.data(
            for: TransportRequest(url: Fixtures.url(Self.tools)), steppingUpWith: agent)
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == #"{"tools":["search"]}"#)

        #expect(agent.presented.count == 2, "the sign-in, then one step-up")
        let stepUp = try #require(agent.presented.last)
        #expect(stepUp.scopes == ["a", "b", "tools.read"])
        #expect(stepUp.additionalParameters["resource"] == ResourceWorld.resource)
        #expect(stepUp.client.id == "dyn-1")
        #expect(stepUp.redirectURI.absoluteString == ResourceWorld.redirectURI)

        let exchange = try #require(await transport.requests(to: ResourceWorld.token).last)
        #expect(exchange.formBody["grant_type"] == "authorization_code")
        #expect(exchange.formBody["code"] == "code-2")
        #expect(exchange.formBody["resource"] == ResourceWorld.resource)

        let sent = await transport.requests(to: Self.tools).map { $0.headerFields["Authorization"] }
        #expect(sent == ["Bearer at-1", "Bearer at-2"])
        let state = await session.state
        #expect(state.resource?.description == ResourceWorld.resource)
        #expect(Set(state.grantedScopes) == ["a", "b", "tools.read"])
        #expect(try await store.load(key: session.key) == state)
        #expect(await transport.requests(to: ResourceWorld.register).count == 1, "no new registration")
    }

    @Test("A second 403 after the step-up is thrown as insufficient_scope, with no second step-up")
    func secondRefusal() async throws {
        let refusal = Self.insufficientScope("a b")
        let (session, transport, agent, _) = try await signedIn(refusal: refusal, accepted: refusal)
        let error = await #expect(throws: OAuthError.self) {
            try await session.data(for: TransportRequest(url: Fixtures.url(Self.tools)), steppingUpWith: agent)
        }
        #expect(error?.code == .insufficientScope)
        #expect(error?.statusCode == 403)
        #expect(agent.presented.count == 2, "the sign-in, then one step-up")
        #expect(await transport.requests(to: Self.tools).count == 2)
        #expect(await transport.requests(to: ResourceWorld.token).count == 2)
    }

    @Test("A 403 naming only granted scopes is thrown at once, with nothing shown")
    func alreadyGranted() async throws {
        let (session, transport, agent, _) = try await signedIn(refusal: Self.insufficientScope("tools.read"))
        let error = await #expect(throws: OAuthError.self) {
            try await session.data(for: TransportRequest(url: Fixtures.url(Self.tools)), steppingUpWith: agent)
        }
        #expect(error?.code == .insufficientScope)
        #expect(agent.presented.count == 1)
        #expect(await transport.requests(to: Self.tools).count == 1)
    }

    @Test("A challenge without scope asks for the server's scopes_supported, offline_access only when granted")
    func challengeWithoutScope() async throws {
        let (session, transport, agent, _) = try await signedIn(
            refusal: Self.insufficientScope(nil),
            serverScopes: ["tools.read", "tools.write", "admin", "offline_access"],
            stepUpScope: "admin tools.read tools.write")
        #expect(agent.presented.first?.scopes == ["tools.read", "offline_access"])
        let answer = try await session.data(
            for: TransportRequest(url: Fixtures.url(Self.tools)), steppingUpWith: agent)
        #expect(answer.status == 200)
        #expect(agent.presented.count == 2)
        #expect(agent.presented.last?.scopes == ["admin", "tools.read", "tools.write"])
        #expect(agent.presented.last?.additionalParameters["resource"] == ResourceWorld.resource)
        #expect(await transport.requests(to: ResourceWorld.token).last?.formBody["resource"] == ResourceWorld.resource)
    }

    @Test("A request outside the resource is refused before anything is sent, even with a step-up agent")
    func outsideResource() async throws {
        let (session, transport, agent, _) = try await signedIn(refusal: Self.insufficientScope("a"))
        let sentBefore = await transport.requests.count
        let error = await #expect(throws: BearerError.self) {
            try await session.data(
                for: TransportRequest(url: Fixtures.url("https://other.example.com/mcp/tools")), steppingUpWith: agent)
        }
        #expect(error?.kind == .resourceMismatch)
        #expect(await transport.requests.count == sentBefore)
        #expect(agent.presented.count == 1)
    }
}
