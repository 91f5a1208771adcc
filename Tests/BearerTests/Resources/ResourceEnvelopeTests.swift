import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a resource session is saved: envelope version 3, which releases that know nothing of
/// resources refuse rather than send its tokens elsewhere.
@Suite("Protected resources: the saved envelope")
struct ResourceEnvelopeTests {
    func fields(_ state: AuthState) throws -> [String: JSONValue] {
        try JSONDecoder().decode([String: JSONValue].self, from: try state.encoded())
    }

    @Test("A signed-in resource session encodes as version 3 with its resource, and decodes back equal")
    func versionThree() async throws {
        let session = try await ResourceWorld.signIn(await ResourceWorld.transport(), store: InMemorySessionStore())
        let state = await session.state
        let encoded = try state.encoded()
        let stored = try fields(state)
        #expect(stored["version"] == .number(3))
        #expect(stored["resource"] == .string(ResourceWorld.resource))
        let decoded = try AuthState(encoded: encoded)
        #expect(decoded == state)
        #expect(decoded.resource == state.resource)
        #expect(decoded.client == state.client)
        #expect(decoded.server.scopesSupported == ["tools.read", "tools.write"])
        #expect(decoded.server.registrationEndpoint?.absoluteString == ResourceWorld.register)
    }

    @Test("The same session without a resource is version 1; a registered client's secret and method round-trip")
    func otherVersions() throws {
        let client = Client(
            id: "dyn-1", secret: ClientSecret("s3cret"), redirectURI: Fixtures.url(ResourceWorld.redirectURI),
            authentication: .clientSecretPost, secretExpiresAt: Fixtures.epoch.addingTimeInterval(3600))
        let resource = try ProtectedResource(Fixtures.url(ResourceWorld.resource))
        let bound = AuthState(
            server: Fixtures.server, client: client, accessToken: AccessToken("at"), resource: resource,
            grantedScopes: ["tools.read"])
        #expect(try fields(bound)["version"] == .number(3))
        let decoded = try AuthState(encoded: try bound.encoded())
        #expect(decoded == bound)
        #expect(decoded.client.authentication == .clientSecretPost)
        #expect(decoded.client.secretExpiresAt == client.secretExpiresAt)

        var unbound = bound
        unbound.resource = nil
        #expect(try fields(unbound)["version"] == .number(1))
        #expect(try fields(unbound)["resource"] == nil)
    }

    @Test("An envelope of version 5 is refused as unreadable")
    func versionFiveRefused() throws {
        let resource = try ProtectedResource(Fixtures.url(ResourceWorld.resource))
        let state = AuthState(
            server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at"), resource: resource)
        var newer = try fields(state)
        newer["version"] = .number(5)
        let error = #expect(throws: BearerError.self) { try AuthState(encoded: try JSONEncoder().encode(newer)) }
        #expect(error?.kind == .unreadableSession)
    }

    @Test("A stored resource that is not a resource URI makes the session unreadable")
    func badResourceRefused() throws {
        let resource = try ProtectedResource(Fixtures.url(ResourceWorld.resource))
        let state = AuthState(
            server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at"), resource: resource)
        for bad: JSONValue in ["https://mcp.example.com/mcp#x", 7] {
            var stored = try fields(state)
            stored["resource"] = bad
            let error = #expect(throws: BearerError.self) { try AuthState(encoded: try JSONEncoder().encode(stored)) }
            #expect(error?.kind == .unreadableSession)
        }
    }
}
