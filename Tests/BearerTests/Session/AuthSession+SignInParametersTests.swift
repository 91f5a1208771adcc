import Bearer
import BearerTestSupport
import Foundation
import Testing

@Suite("What a sign-in sends and keeps beyond the standard fields")
struct SignInParametersTests {
    @Test("Extra code-exchange parameters (RFC 8707 resource, audience) are sent, never over standard ones")
    func tokenParameters() async throws {
        let transport = RecordingTransport(replies: [SignInTests.tokens])
        let agent = ScriptedAgent.approving(code: "c-1")
        _ = try await AuthSession.signIn(
            to: Fixtures.server, as: Fixtures.publicClient, scopes: ["email"], using: agent,
            store: InMemorySessionStore(),
            tokenParameters: ["resource": "https://api.example.com", "audience": "files", "code": "forged"],
            transport: transport)
        let exchange = try #require(await transport.requests.first).formBody
        #expect(exchange["resource"] == "https://api.example.com")
        #expect(exchange["audience"] == "files")
        #expect(exchange["code"] == "c-1", "a standard parameter cannot be replaced")
        #expect(try #require(agent.presented.first).additionalParameters["resource"] == nil, "not on the page")
    }

    @Test("A token answer's extra fields (Google's server_code style) are readable from the session")
    func extraFieldsAreReadable() async throws {
        let transport = RecordingTransport(replies: [
            .json(
                200,
                #"{"access_token":"at","token_type":"Bearer","expires_in":3600,"server_code":"4/abc","nested":{"n":1}}"#
            )
        ])
        let session = try await AuthSession.signIn(
            to: Fixtures.server, as: Fixtures.publicClient, scopes: ["email"], using: ScriptedAgent.approving(),
            store: InMemorySessionStore(), transport: transport)
        let fields = await session.state.additionalParameters
        #expect(fields["server_code"]?.stringValue == "4/abc")
        #expect(fields["nested"] == .object(["n": .number(1)]))
        #expect(fields["access_token"] == nil, "the tokens are not repeated there")
    }

    @Test("A client without a redirect URI signs in with an agent that brings one, and fails clearly without")
    func clientWithoutRedirectURI() async throws {
        struct LoopbackLike: AuthorizationAgent {
            var redirectURI: URL? { Fixtures.url("http://127.0.0.1:50000/callback") }
            func present(_ request: AuthorizationRequest) async throws -> URL {
                Fixtures.redirect(for: request, query: "state=\(request.state)&code=c")
            }
        }
        let tool = Client(id: "my-tool")
        #expect(tool.redirectURI == nil)
        let transport = RecordingTransport(replies: [SignInTests.tokens])
        let session = try await AuthSession.signIn(
            to: Fixtures.server, as: tool, scopes: ["email"], using: LoopbackLike(), store: InMemorySessionStore(),
            transport: transport)
        #expect(await session.state.client == tool)
        #expect(
            try #require(await transport.requests.first).formBody["redirect_uri"] == "http://127.0.0.1:50000/callback")
        let store = InMemorySessionStore()
        let error = await #expect(throws: BearerError.self) {
            _ = try await AuthSession.signIn(
                to: Fixtures.server, as: tool, scopes: ["email"], using: ScriptedAgent.approving(), store: store,
                transport: RecordingTransport(replies: []))
        }
        #expect(error?.kind == .invalidConfiguration)
        #expect(try await store.keys().isEmpty)
    }

    @Test("Revocation outcomes compare by case, and failures by their errors")
    func revocationOutcomesAreEquatable() {
        #expect(RevocationOutcome.revoked == .revoked)
        #expect(RevocationOutcome.notRevoked != .revoked)
        let offline = RevocationOutcome.failed(BearerError.network("offline"))
        #expect(offline == .failed(BearerError.network("another reason")), "BearerErrors compare by kind")
        #expect(offline != .failed(BearerError.serverUnavailable("offline")))
        #expect(
            RevocationOutcome.failed(OAuthError(code: .invalidClient)) == .failed(OAuthError(code: .invalidClient)))
        #expect(RevocationOutcome.failed(OAuthError(code: .invalidClient)) != .failed(BearerError.network("x")))
        #expect(RevocationOutcome.failed(CancellationError()) == .failed(CancellationError()))
        #expect(offline != .revoked)
    }
}
