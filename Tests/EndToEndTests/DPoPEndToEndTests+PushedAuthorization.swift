import Bearer
import Foundation
import Testing

@_spi(Testing) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension DPoPEndToEndTests {
    /// Pushed authorization requests (RFC 9126) at the stock glewlwyd: its `oidc` instance allows
    /// them, its `oidcpar` instance requires them (Server/glewlwyd/README.md). Nested in the glewlwyd
    /// suite, whose tests run one at a time.
    @Suite("pushed authorization requests at glewlwyd")
    struct PushedAuthorization {
        static func server(_ instance: String) async throws -> AuthorizationServer {
            try await AuthorizationServerClient(transport: TestServer.transport).discover(
                issuer: try Glewlwyd.url("/api/" + instance), allowingInsecureLoopback: true)
        }

        static func configuration(
            dpop: DPoPSettings.Use, pushing: PushedAuthorizationUse = .whenAdvertised
        ) -> AuthSession.Configuration {
            var configuration = AuthSession.Configuration(dpop: DPoPSettings(use: dpop, keys: PlatformDPoPKeys()))
            configuration.pushedAuthorization = pushing
            configuration.idTokenSignatures = IDTokenSignatureSettings(
                requirement: .required, verifier: PlatformSignatureVerifier())
            return configuration
        }

        @Test(
            "Where PAR is advertised, a DPoP sign-in pushes once with dpop_jkt and no proof; the code is bound to the key"
        )
        func advertisedWithDPoP() async throws {
            let server = try await Self.server("oidc")
            #expect(
                server.pushedAuthorizationRequestEndpoint != nil && server.requiresPushedAuthorizationRequests == false)
            let transport = ObservingTransport()
            let session = try await AuthSession.signIn(
                to: server, as: try Glewlwyd.client(Glewlwyd.optionalClient, port: 18181),
                scopes: ["openid", "email"], using: try Glewlwyd.agent(port: 18181), store: InMemorySessionStore(),
                transport: transport, configuration: Self.configuration(dpop: .required))
            let pushes = await transport.exchanges(toPathEnding: "/par")
            #expect(pushes.map(\.status) == [201], "one push, answered 201 with a request_uri")
            #expect(pushes.allSatisfy { !$0.hadProof }, "dpop_jkt names the key; glewlwyd never sends a nonce at /par")
            let state = await session.state
            let key = try #require(state.dpopKey)
            let token = try #require(state.accessToken)
            #expect(state.accessTokenType == .dpop)
            #expect(AuthState.confirmationThumbprint(of: token) == key.thumbprint)
            #expect(state.user?.email == "alice@example.com", "the RS256 ID token passed its signature check")
            let refreshed = try await session.refresh()
            #expect(refreshed.dpopKey == key)
        }

        @Test(
            "A client that must use DPoP cannot push to glewlwyd without a nonce it never gives: a typed error, no fallback"
        )
        func dpopRequiredClientRefusedAtPush() async throws {
            let server = try await Self.server("oidc")
            let transport = ObservingTransport()
            let error = await #expect(throws: OAuthError.self) {
                _ = try await AuthSession.signIn(
                    to: server, as: try Glewlwyd.client(Glewlwyd.dpopClient, port: 18181), scopes: ["openid"],
                    using: NeverShownAgent(), store: InMemorySessionStore(), transport: transport,
                    configuration: Self.configuration(dpop: .required))
            }
            #expect(error?.code.rawValue == "invalid_dpop_proof")
            #expect(await transport.exchanges(toPathEnding: "/par").map(\.status) == [403])
            #expect(await transport.exchanges(toPathEnding: "/token").isEmpty)
        }

        @Test("Where PAR is required, the sign-in pushes; the server refuses a request through the browser alone")
        func requiredByServer() async throws {
            let server = try await Self.server("oidcpar")
            #expect(server.requiresPushedAuthorizationRequests == true)
            let client = try Glewlwyd.client(Glewlwyd.optionalClient, port: 18182)
            let plain = try AuthorizationRequest(server: server, client: client, scopes: ["openid", "email"])
            let frontChannel = try await TestServer.transport.send(TransportRequest(url: plain.url))
            #expect(frontChannel.status == 403, "glewlwyd refuses an authorization request that was not pushed")

            let transport = ObservingTransport()
            let store = InMemorySessionStore()
            let session = try await AuthSession.signIn(
                to: server, as: client, scopes: ["openid", "email"], using: try Glewlwyd.agent(port: 18182),
                store: store, transport: transport, configuration: Self.configuration(dpop: .never))
            #expect(await transport.exchanges(toPathEnding: "/par").map(\.status) == [201])
            #expect(await session.state.accessTokenType == .bearer)
            #expect(try await store.keys() == ["default"])

            let refused = ObservingTransport()
            let error = await #expect(throws: BearerError.self) {
                _ = try await AuthSession.signIn(
                    to: server, as: client, scopes: ["openid"], using: try Glewlwyd.agent(port: 18182),
                    store: InMemorySessionStore(), transport: refused,
                    configuration: Self.configuration(dpop: .never, pushing: .never))
            }
            #expect(error?.kind == .invalidConfiguration)
            #expect(await refused.exchanges.isEmpty, "refused before anything was sent")
        }

        @Test("A push glewlwyd refuses (403, empty body) fails the sign-in; nothing is shown in the browser")
        func refusedPush() async throws {
            let server = try await Self.server("oidcpar")
            let unregistered = try Glewlwyd.client(Glewlwyd.optionalClient, port: 18199)
            let transport = ObservingTransport()
            let error = await #expect(throws: BearerError.self) {
                _ = try await AuthSession.signIn(
                    to: server, as: unregistered, scopes: ["openid"], using: NeverShownAgent(),
                    store: InMemorySessionStore(), transport: transport,
                    configuration: Self.configuration(dpop: .never))
            }
            #expect(error?.kind == .invalidResponse)
            #expect("\(error.map { "\($0)" } ?? "")".contains("HTTP 403"))
            #expect(await transport.exchanges.map(\.path).allSatisfy { $0.hasSuffix("/par") })
        }

        @Test("A pending sign-in begun with PAR on one instance is finished by another from the callback alone")
        func pendingSignIn() async throws {
            let server = try await Self.server("oidcpar")
            let client = try Glewlwyd.client(Glewlwyd.optionalClient, port: 18183)
            let shared = InMemorySessionStore()
            let pending = try await AuthSession.beginSignIn(
                to: server, as: client, scopes: ["openid", "email"], key: "user-42", transport: TestServer.transport,
                configuration: Self.configuration(dpop: .never))
            let expiry = try #require(pending.pushedRequestExpiresAt)
            #expect(expiry > Date() && expiry <= Date().addingTimeInterval(91), "glewlwyd's oauth-par-duration is 90 s")
            #expect(!(pending.authorizationURL.query ?? "").contains("code_challenge"))
            try await shared.savePendingSignIn(pending)

            let redirect = try await Browser.authorize(pending.authorizationURL)
            let session = try await AuthSession.finishSignIn(
                redirect: redirect, pendingSignIns: shared, store: shared, key: "user-42",
                transport: TestServer.transport, configuration: Self.configuration(dpop: .never))
            #expect(await session.state.user?.email == "alice@example.com")
            #expect(try await shared.load(key: "user-42") != nil)
        }
    }
}

/// An agent whose page must never be shown: the tests where a sign-in is to fail before it.
struct NeverShownAgent: AuthorizationAgent {
    var redirectURI: URL? { nil }

    func present(_ request: AuthorizationRequest) async throws -> URL {
        Issue.record("the authorization page was shown")
        throw CancellationError()
    }
}
