import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Migration) @_spi(Testing) @testable import BearerCore

/// Signed request objects (JAR, RFC 9101) on the fake transport: what the object says and that it
/// verifies against the client's published key, where it goes with and without PAR, and each
/// configuration that is refused before anything is sent.
@Suite("Signed request objects: the request as a JWT signed with the client's key")
struct RequestObjectTests {
    static func server(requires: Bool? = true, algorithms: [String]? = nil, pushing: Bool = false)
        -> AuthorizationServer
    {
        var server = pushing ? PushedAuthorizationTests.server() : Fixtures.server
        server.requiresSignedRequestObjects = requires
        server.requestObjectSigningAlgorithms = algorithms
        return server
    }

    typealias Outcome = (result: Result<AuthSession, any Error>, requests: [TransportRequest], shown: [URL])

    static func signIn(
        server: AuthorizationServer, use: RequestObjectUse = .whenRequired, key: (any DPoPKey)?,
        scopes: [String] = ["openid", "email"], additionalParameters: [String: String] = [:],
        replies: [RecordingTransport.Reply] = []
    ) async -> Outcome {
        let transport = RecordingTransport(replies: replies)
        let agent = RecordingURLAgent(transport) { _ in [PushedAuthorizationTests.tokens] }
        var configuration = AuthSession.Configuration()
        configuration.requestObjects = use
        configuration.clientKeys = key.map(StaticClientKey.init)
        let result: Result<AuthSession, any Error>
        do {
            result = .success(
                try await AuthSession.signIn(
                    to: server, as: Fixtures.publicClient, scopes: scopes, using: agent, store: InMemorySessionStore(),
                    additionalParameters: additionalParameters, transport: transport, clock: .fixed(Fixtures.epoch),
                    configuration: configuration))
        } catch {
            result = .failure(error)
        }
        return (result, await transport.requests, agent.shown)
    }

    /// The query of `url`, as name and value pairs in order.
    static func query(of url: URL) -> [(name: String, value: String)] {
        FormEncoding.decodePairs(url.query ?? "")
    }

    /// The header, claims, signing input and signature of a compact JWS.
    static func parts(
        of jwt: String
    ) throws -> (header: [String: JSONValue], claims: [String: JSONValue], input: [UInt8], signature: [UInt8]) {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        let header = try JSONDecoder().decode([String: JSONValue].self, from: try #require(Base64URL.decode(parts[0])))
        let claims = try JSONDecoder().decode([String: JSONValue].self, from: try #require(Base64URL.decode(parts[1])))
        return (header, claims, Array("\(parts[0]).\(parts[1])".utf8), Array(try #require(Base64URL.decode(parts[2]))))
    }

    /// Expects a sign-in refused with `kind` before anything was sent or shown.
    static func expectRefusedBeforeSending(
        _ outcome: Outcome, _ kind: BearerError.Kind, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard case .failure(let error) = outcome.result else {
            Issue.record("the sign-in succeeded", sourceLocation: sourceLocation)
            return
        }
        #expect((error as? BearerError)?.kind == kind, "\(error)", sourceLocation: sourceLocation)
        #expect(outcome.requests.isEmpty && outcome.shown.isEmpty, sourceLocation: sourceLocation)
    }

    @Test("Not pushed: the browser carries response_type, client_id, scope and a request object that verifies")
    func frontChannelRequestObject() async throws {
        let key = try await PlatformDPoPKeys().makeKey()
        let outcome = await Self.signIn(server: Self.server(), key: key, additionalParameters: ["login_hint": "a@b"])
        _ = try outcome.result.get()
        let shown = try #require(outcome.shown.first)
        let query = Self.query(of: shown)
        #expect(query.map(\.name) == ["response_type", "client_id", "scope", "request"])
        #expect(query.first { $0.name == "scope" }?.value == "openid email")
        let jwt = try #require(query.last?.value)
        let (header, claims, input, signature) = try Self.parts(of: jwt)
        #expect(header["alg"] == "ES256" && header["typ"] == "oauth-authz-req+jwt")
        #expect(header["kid"]?.stringValue == key.record.thumbprint)
        #expect(claims["iss"]?.stringValue == Fixtures.publicClient.id)
        #expect(claims["client_id"]?.stringValue == Fixtures.publicClient.id)
        #expect(claims["aud"]?.stringValue == Fixtures.issuer)
        #expect(claims["response_type"] == "code" && claims["code_challenge_method"] == "S256")
        #expect(claims["redirect_uri"]?.stringValue == Fixtures.publicClient.redirectURI?.absoluteString)
        #expect(claims["login_hint"] == "a@b")
        #expect(claims["state"] != nil && claims["nonce"] != nil && claims["code_challenge"] != nil)
        let issuedAt = try #require(claims["iat"]?.numberValue)
        #expect(issuedAt == Fixtures.epoch.timeIntervalSince1970 && claims["nbf"]?.numberValue == issuedAt)
        #expect(claims["exp"]?.numberValue == issuedAt + 600, "ten minutes, within FAPI 2.0's hour")
        #expect((claims["jti"]?.stringValue?.count ?? 0) >= 22)

        let published = try JSONWebKeySet(json: Data(ClientAssertion.publicKeySet(of: key.record.publicKey).utf8))
        let candidates = published.candidates(for: .es256, keyID: header["kid"]?.stringValue)
        let publishedKey = try #require(candidates.first)
        #expect(try PlatformSignatureVerifier().isValidSignature(signature, of: input, by: .es256, with: publishedKey))
        var tampered = input
        tampered[tampered.count - 1] ^= 1
        #expect(
            try !PlatformSignatureVerifier().isValidSignature(signature, of: tampered, by: .es256, with: publishedKey))
    }

    @Test("Pushed: the push carries the request object alone, the browser client_id and request_uri")
    func pushedRequestObject() async throws {
        let key = try await PlatformDPoPKeys().makeKey()
        let outcome = await Self.signIn(
            server: Self.server(pushing: true), key: key, replies: [PushedAuthorizationTests.pushedAnswer])
        _ = try outcome.result.get()
        let push = try #require(outcome.requests.first)
        #expect(push.url == PushedAuthorizationTests.parURL)
        #expect(
            FormEncoding.decodePairs(String(decoding: push.body ?? Data(), as: UTF8.self)).map(\.name).sorted()
                == ["client_id", "request"])
        let claims = try Self.parts(of: try #require(push.formBody["request"])).claims
        #expect(claims["state"] != nil && claims["code_challenge"] != nil)
        #expect(Self.query(of: try #require(outcome.shown.first)).map(\.name) == ["client_id", "request_uri"])
    }

    @Test("Asked for with .always at a server that does not require it; left out by default")
    func alwaysAndDefault() async throws {
        let key = try await PlatformDPoPKeys().makeKey()
        let always = await Self.signIn(server: Self.server(requires: nil), use: .always, key: key)
        _ = try always.result.get()
        #expect(Self.query(of: try #require(always.shown.first)).contains { $0.name == "request" })
        let plain = await Self.signIn(server: Self.server(requires: false), key: key)
        _ = try plain.result.get()
        #expect(!Self.query(of: try #require(plain.shown.first)).contains { $0.name == "request" })
    }

    @Test("Refused before sending: .never at a server that requires them, no client key, no ES256, a clashing claim")
    func refusals() async throws {
        let key = try await PlatformDPoPKeys().makeKey()
        Self.expectRefusedBeforeSending(
            await Self.signIn(server: Self.server(), use: .never, key: key), .invalidConfiguration)
        Self.expectRefusedBeforeSending(await Self.signIn(server: Self.server(), key: nil), .invalidConfiguration)
        Self.expectRefusedBeforeSending(
            await Self.signIn(server: Self.server(algorithms: ["RS256", "PS256"]), key: key), .invalidConfiguration)
        Self.expectRefusedBeforeSending(
            await Self.signIn(server: Self.server(), key: key, additionalParameters: ["exp": "1"]),
            .invalidConfiguration)
        Self.expectRefusedBeforeSending(
            await Self.signIn(
                server: Self.server(pushing: true), key: nil, replies: [PushedAuthorizationTests.pushedAnswer]),
            .invalidConfiguration)
        _ = try await Self.signIn(server: Self.server(algorithms: ["ES256"]), key: key).result.get()
    }

    @Test("A pending sign-in without a transport is refused by a server that requires signed requests")
    func pendingSignInWithoutTransportRefused() throws {
        let error = #expect(throws: BearerError.self) {
            try AuthSession.beginSignIn(to: Self.server(), as: Fixtures.publicClient, scopes: ["email"], key: "user-42")
        }
        #expect(error?.kind == .invalidConfiguration)
    }

    @Test("A pending sign-in's request object survives storage: the same URL after decoding")
    func pendingSignInKeepsRequestObject() async throws {
        var configuration = AuthSession.Configuration()
        configuration.clientKeys = StaticClientKey(try await PlatformDPoPKeys().makeKey())
        let pending = try await AuthSession.beginSignIn(
            to: Self.server(), as: Fixtures.publicClient, scopes: ["email"], key: "user-42",
            transport: RecordingTransport(), clock: .fixed(Fixtures.epoch), configuration: configuration)
        #expect(
            Self.query(of: pending.authorizationURL).map(\.name) == ["response_type", "client_id", "scope", "request"])
        let stored = try JSONDecoder().decode(PendingSignIn.self, from: JSONEncoder().encode(pending))
        #expect(stored.authorizationURL == pending.authorizationURL)
        #expect(!String(describing: pending.request).contains(pending.request.requestObject ?? "-"))
    }

    @Test("Discovery reads require_signed_request_object and request_object_signing_alg_values_supported")
    func discovery() throws {
        let document = #"""
            {"issuer":"\#(Fixtures.issuer)","authorization_endpoint":"https://auth.example.com/authorize",
             "token_endpoint":"https://auth.example.com/token","require_signed_request_object":true,
             "request_object_signing_alg_values_supported":["ES256","PS256"]}
            """#
        let server = try AuthorizationServer(
            metadata: Data(document.utf8), expectedIssuer: Fixtures.url(Fixtures.issuer))
        #expect(server.requiresSignedRequestObjects == true)
        #expect(server.requestObjectSigningAlgorithms == ["ES256", "PS256"])
    }

    @Test("Adding scopes signs and pushes as a first sign-in does, at a server that requires both")
    func addScopesSignsAndPushes() async throws {
        var server = Self.server(pushing: true)
        server.requiresPushedAuthorizationRequests = true
        let transport = RecordingTransport(replies: [PushedAuthorizationTests.pushedAnswer])
        let agent = RecordingURLAgent(transport) { _ in [PushedAuthorizationTests.tokens] }
        var configuration = AuthSession.Configuration()
        configuration.clientKeys = StaticClientKey(try await PlatformDPoPKeys().makeKey())
        let session = try await AuthSession.signIn(
            to: server, as: Fixtures.publicClient, scopes: ["email"], using: agent, store: InMemorySessionStore(),
            transport: transport, clock: .fixed(Fixtures.epoch), configuration: configuration)
        await transport.enqueue(PushedAuthorizationTests.pushedAnswer)
        #expect(try await session.addScopes(["drive.readonly"], using: agent) == .granted)
        let requests = await transport.requests
        #expect(
            requests.map(\.url) == [
                PushedAuthorizationTests.parURL, Fixtures.server.tokenEndpoint, PushedAuthorizationTests.parURL,
                Fixtures.server.tokenEndpoint,
            ])
        let upgrade = try Self.parts(of: try #require(requests[2].formBody["request"])).claims
        #expect(upgrade["scope"] == "drive.readonly email" && upgrade["include_granted_scopes"] == "true")
        #expect(agent.shown.allSatisfy { Self.query(of: $0).map(\.name) == ["client_id", "request_uri"] })
    }
}
