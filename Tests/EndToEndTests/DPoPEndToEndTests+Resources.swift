import Bearer
import Foundation
import Testing

@_spi(Testing) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension DPoPEndToEndTests {
    /// RFC 7591 registration and RFC 8707's per-resource rules at a second implementation, the
    /// stock glewlwyd, whose scope `api.read` may name `http://127.0.0.1:18180/api`. It is nested in
    /// the glewlwyd suite, whose tests run one at a time.
    @Suite("dynamic registration and resource indicators at glewlwyd")
    struct Resources {
        static let resource = "http://127.0.0.1:18180/api"

        @Test("A registered client signs in for one resource, whose token names it; a refresh for another is refused")
        func registerThenSignInForResource() async throws {
            let server = try await Glewlwyd.discover()
            let serverClient = AuthorizationServerClient(transport: TestServer.transport)
            let redirect = try #require(URL(string: "http://127.0.0.1:18179/callback"))
            let (client, isNew) = try await serverClient.client(
                of: ClientIdentity(name: "Bearer end-to-end"), at: server, redirectURI: redirect, registered: nil)
            #expect(isNew)
            #expect(client.secret == nil && client.authentication == ClientAuthentication.none)
            #expect(client.id.count == 16, "glewlwyd issues 16-character client IDs")

            let resource = try ProtectedResource(
                try #require(URL(string: Self.resource)), allowingInsecureLoopback: true)
            let store = InMemorySessionStore()
            let session = try await AuthSession.signIn(
                to: server, as: client, scopes: ["openid", "api.read"], using: try Glewlwyd.agent(port: 18179),
                store: store, key: "api", additionalParameters: [:], tokenParameters: [:],
                transport: TestServer.transport, clock: .system,
                configuration: AuthSession.Configuration(dpop: DPoPSettings(use: .never)), resource: resource)
            let state = await session.state
            #expect(state.resource == resource)
            let token = try #require(state.accessToken)
            #expect(Self.audience(of: token) == .string(Self.resource), "glewlwyd issued the token for the resource")

            let refreshed = try await session.refresh()
            #expect(Self.audience(of: try #require(refreshed.accessToken)) == .string(Self.resource))

            var elsewhere = refreshed
            elsewhere.resource = try ProtectedResource(
                try #require(URL(string: "http://127.0.0.1:18180/other")), allowingInsecureLoopback: true)
            let refusal = await #expect(throws: OAuthError.self) { try await serverClient.refresh(elsewhere) }
            #expect(refusal?.code.rawValue == "invalid_target")
            #expect(try await session.refresh().accessToken != nil, "the grant still refreshes for its resource")
        }

        /// The `aud` claim of a JWT access token.
        static func audience(of token: AccessToken) -> JSONValue? {
            let parts = token.value.split(separator: ".")
            guard parts.count == 3, let payload = Base64URL.decode(parts[1]),
                let claims = try? JSONDecoder().decode([String: JSONValue].self, from: payload)
            else { return nil }
            return claims["aud"]
        }
    }
}
