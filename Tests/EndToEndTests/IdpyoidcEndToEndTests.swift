import Bearer
import Foundation
import Testing

@_spi(Testing) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Server/idpyoidc/server.py: PyPI `idpyoidc` 5.0.0's OpenID Provider, in the pinned environment
/// `scripts/idpyoidc-venv` makes, a second server independent of glewlwyd for signed clients
/// (Server/idpyoidc/README.md). Each suite starts its own.
enum Idpyoidc {
    /// The environment's python, from `BEARER_IDPYOIDC_PYTHON`.
    static let python: URL? = ProcessInfo.processInfo.environment["BEARER_IDPYOIDC_PYTHON"]
        .map { URL(fileURLWithPath: $0) }

    /// Whether the idpyoidc end-to-end tests can run.
    static var isConfigured: Bool { python != nil }

    /// The interpreter, or an error saying how to get one.
    static func interpreter() throws -> URL {
        guard let python else { throw ServerMissing() }
        return python
    }

    /// The server at `base`, discovered.
    static func server(at base: URL) async throws -> AuthorizationServer {
        try await AuthorizationServerClient(transport: TestServer.transport).discover(
            issuer: base, allowingInsecureLoopback: true)
    }

    /// A client registered with `key`'s key set by Bearer's registration (RFC 7591).
    static func register(_ key: any DPoPKey, at server: AuthorizationServer) async throws -> Client {
        let redirect = try #require(URL(string: "http://127.0.0.1:18190/callback"))
        return try await AuthorizationServerClient(
            transport: TestServer.transport, clock: .system, dpop: nil, clientKeys: StaticClientKey(key)
        ).register("Bearer signed-client test", redirectURI: redirect, at: server)
    }

    /// A configuration whose client signs assertions with `key` and checks ID-token signatures.
    static func configuration(
        _ key: any DPoPKey, audience: ClientAssertionAudience = .endpoint, requestObjects: RequestObjectUse = .always,
        pushing: PushedAuthorizationUse = .whenAdvertised
    ) -> AuthSession.Configuration {
        var configuration = AuthSession.Configuration(dpop: DPoPSettings(use: .never, keys: PlatformDPoPKeys()))
        configuration.clientKeys = StaticClientKey(key)
        configuration.clientAssertionAudience = audience
        configuration.requestObjects = requestObjects
        configuration.pushedAuthorization = pushing
        configuration.idTokenSignatures = IDTokenSignatureSettings(
            requirement: .required, verifier: PlatformSignatureVerifier())
        return configuration
    }

    struct ServerMissing: Error, CustomStringConvertible {
        var description: String { "BEARER_IDPYOIDC_PYTHON is not set; run scripts/test." }
    }

    /// Why they are skipped when they are; scripts/test fails a run that skips them.
    static let skipReason: Comment = """
        IDPYOIDC TESTS SKIPPED: BEARER_IDPYOIDC_PYTHON is not set. Run scripts/test, which sets up PyPI's \
        idpyoidc (scripts/idpyoidc-venv) and runs them.
        """
}

/// idpyoidc signs alice in without a page: its authorization endpoint answers with the redirect at
/// once, which this agent reads without following it.
struct DirectRedirectAgent: AuthorizationAgent {
    func present(_ request: AuthorizationRequest) async throws -> URL {
        let answer = try await TestServer.transport.send(TransportRequest(url: request.url))
        let location = try #require(answer.headerFields["Location"], "no redirect: HTTP \(answer.status)")
        return try #require(URL(string: location))
    }
}

@Suite(
    "End to end: signed clients at idpyoidc 5.0.0", .serialized,
    .enabled(if: Idpyoidc.isConfigured, Idpyoidc.skipReason))
final class IdpyoidcEndToEndTests {
    let script: ServerScript

    init() async throws {
        script = try await ServerScript(
            "idpyoidc/server.py", python: try Idpyoidc.interpreter(),
            arguments: ["--fill-outer-parameters", "--issue-refresh"])
    }

    deinit { script.stop() }

    func server() async throws -> AuthorizationServer { try await Idpyoidc.server(at: script.base) }

    func register(_ key: any DPoPKey, at server: AuthorizationServer) async throws -> Client {
        try await Idpyoidc.register(key, at: server)
    }

    func configuration(
        _ key: any DPoPKey, audience: ClientAssertionAudience = .endpoint, requestObjects: RequestObjectUse = .always,
        pushing: PushedAuthorizationUse = .whenAdvertised
    ) -> AuthSession.Configuration {
        Idpyoidc.configuration(key, audience: audience, requestObjects: requestObjects, pushing: pushing)
    }

    @Test("Discovery names PAR, private_key_jwt, ES256 request objects, S256 and RFC 9207's iss")
    func discovery() async throws {
        let server = try await server()
        #expect(server.pushedAuthorizationRequestEndpoint != nil)
        #expect(server.registrationEndpoint != nil && server.jwksURI != nil)
        #expect(server.sendsIssuerInAuthorizationResponse == true)
    }

    @Test("A client Bearer registers with its key set pushes a signed request object, signs in and refreshes")
    func pushedRequestObject() async throws {
        let server = try await server()
        let key = try await PlatformDPoPKeys().makeKey()
        let client = try await register(key, at: server)
        #expect(client.authentication == .privateKeyJWT)
        let transport = ObservingTransport()
        let session = try await AuthSession.signIn(
            to: server, as: client, scopes: ["openid"], using: DirectRedirectAgent(), store: InMemorySessionStore(),
            transport: transport, configuration: configuration(key))
        let pushes = await transport.exchanges(toPathEnding: server.pushedAuthorizationRequestEndpoint?.path ?? "-")
        #expect(pushes.map(\.status) == [201])
        #expect(
            pushes.first?.formParameterNames == ["client_id", "request", "client_assertion_type", "client_assertion"])
        let state = await session.state
        #expect(state.idToken != nil, "an ES256 ID token, verified against the server's keys")
        #expect(state.refreshToken != nil)
        _ = try await session.refresh()
        let tokens = await transport.exchanges(toPathEnding: server.tokenEndpoint.path)
        #expect(tokens.map(\.status) == [200, 200])
        #expect(tokens.allSatisfy { $0.formParameterNames.contains("client_assertion") })
    }

    @Test("Not pushed, the signed request object goes through the browser with the request's parameters")
    func requestObjectThroughTheBrowser() async throws {
        let server = try await server()
        let key = try await PlatformDPoPKeys().makeKey()
        let client = try await register(key, at: server)
        let transport = ObservingTransport()
        let session = try await AuthSession.signIn(
            to: server, as: client, scopes: ["openid"], using: DirectRedirectAgent(), store: InMemorySessionStore(),
            transport: transport, configuration: configuration(key, pushing: .never))
        #expect(await transport.exchanges(toPathEnding: "par").isEmpty)
        #expect(await session.state.idToken != nil)
    }

    @Test("idpyoidc 5.0.0 refuses an assertion naming the issuer at its PAR endpoint: nothing shown or saved")
    func issuerAudienceRefused() async throws {
        let server = try await server()
        let key = try await PlatformDPoPKeys().makeKey()
        let client = try await register(key, at: server)
        let store = InMemorySessionStore()
        await #expect(throws: (any Error).self) {
            _ = try await AuthSession.signIn(
                to: server, as: client, scopes: ["openid"], using: NeverShownAgent(), store: store,
                transport: TestServer.transport, configuration: self.configuration(key, audience: .issuer))
        }
        #expect(try await store.keys().isEmpty)
    }

    @Test("An assertion signed by a key the client did not register is refused, and nothing is saved")
    func unregisteredKeyRefused() async throws {
        let server = try await server()
        let client = try await register(try await PlatformDPoPKeys().makeKey(), at: server)
        let store = InMemorySessionStore()
        let other = try await PlatformDPoPKeys().makeKey()
        await #expect(throws: (any Error).self) {
            _ = try await AuthSession.signIn(
                to: server, as: client, scopes: ["openid"], using: NeverShownAgent(), store: store,
                transport: TestServer.transport, configuration: self.configuration(other))
        }
        #expect(try await store.keys().isEmpty)
    }
}
