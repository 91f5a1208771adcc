import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Migration) @_spi(Testing) @testable import BearerCore

/// `private_key_jwt` (RFC 7523 §2.2, OpenID Connect Core §9) on the fake transport: what the
/// assertion says, that it verifies against the key set printed for registration, that every
/// request gets its own, and that a client without a usable key sends nothing.
@Suite("private_key_jwt: client assertions signed with the client's key")
struct ClientAssertionTests {
    static let client = Client(
        id: "fapi-client", redirectURI: Fixtures.url("com.example.app:/oauth2callback"),
        authentication: .privateKeyJWT)

    static func configuration(keys: (any ClientKeySource)?) -> AuthSession.Configuration {
        var configuration = AuthSession.Configuration()
        configuration.clientKeys = keys
        return configuration
    }

    struct FailingKeys: ClientKeySource {
        struct Unavailable: Error {}
        func key(for client: Client, at server: AuthorizationServer) async throws -> any DPoPKey {
            throw Unavailable()
        }
    }

    /// Signs in as ``client`` at `server` with `replies` queued first (a push's answer).
    static func signIn(
        server: AuthorizationServer = Fixtures.server, keys: (any ClientKeySource)?,
        client: Client = client, replies: [RecordingTransport.Reply] = [],
        tokenReplies: [RecordingTransport.Reply] = [PushedAuthorizationTests.tokens]
    ) async -> (result: Result<AuthSession, any Error>, requests: [TransportRequest]) {
        let transport = RecordingTransport(replies: replies)
        let agent = RecordingURLAgent(transport) { _ in tokenReplies }
        let result: Result<AuthSession, any Error>
        do {
            result = .success(
                try await AuthSession.signIn(
                    to: server, as: client, scopes: ["email"], using: agent, store: InMemorySessionStore(),
                    transport: transport, clock: .fixed(Fixtures.epoch), configuration: configuration(keys: keys)))
        } catch {
            result = .failure(error)
        }
        return (result, await transport.requests)
    }

    /// The assertion `request` carries, split into header, claims, signing input and signature.
    static func assertion(
        of request: TransportRequest
    ) throws -> (header: [String: JSONValue], claims: [String: JSONValue], input: [UInt8], signature: [UInt8]) {
        let body = request.formBody
        #expect(body["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        let jwt = try #require(body["client_assertion"])
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        let header = try JSONDecoder().decode([String: JSONValue].self, from: try #require(Base64URL.decode(parts[0])))
        let claims = try JSONDecoder().decode([String: JSONValue].self, from: try #require(Base64URL.decode(parts[1])))
        let signature = try #require(Base64URL.decode(parts[2]))
        return (header, claims, Array("\(parts[0]).\(parts[1])".utf8), Array(signature))
    }

    @Test(
        "The token request carries client_id and an ES256 assertion: iss = sub = client, aud = issuer, 60 s, verifiable"
    )
    func assertionAtTokenEndpoint() async throws {
        let key = try await PlatformDPoPKeys().makeKey()
        let outcome = await Self.signIn(keys: StaticClientKey(key))
        _ = try outcome.result.get()
        let exchange = try #require(outcome.requests.first)
        #expect(exchange.url == Fixtures.server.tokenEndpoint)
        #expect(exchange.formBody["client_id"] == Self.client.id)
        #expect(exchange.formBody["client_secret"] == nil && exchange.headerFields["Authorization"] == nil)

        let (header, claims, input, signature) = try Self.assertion(of: exchange)
        #expect(header["alg"] == "ES256" && header["typ"] == "JWT")
        #expect(header["kid"]?.stringValue == key.record.thumbprint)
        #expect(claims["iss"]?.stringValue == Self.client.id && claims["sub"]?.stringValue == Self.client.id)
        #expect(claims["aud"]?.stringValue == Fixtures.issuer, "the issuer, never the token endpoint alone")
        let issuedAt = try #require(claims["iat"]?.numberValue)
        #expect(issuedAt == Fixtures.epoch.timeIntervalSince1970)
        #expect(claims["exp"]?.numberValue == issuedAt + 60)
        #expect((claims["jti"]?.stringValue?.count ?? 0) >= 22)

        let published = try JSONWebKeySet(
            json: Data(ClientAssertion.publicKeySet(of: key.record.publicKey).utf8))
        let candidates = published.candidates(for: .es256, keyID: header["kid"]?.stringValue)
        #expect(candidates.count == 1, "the key set printed for registration names the key by its kid")
        let publishedKey = try #require(candidates.first)
        #expect(try PlatformSignatureVerifier().isValidSignature(signature, of: input, by: .es256, with: publishedKey))
    }

    @Test("Every request gets its own assertion: the push and the exchange, and a DPoP nonce retry")
    func freshAssertionPerRequest() async throws {
        let key = try await PlatformDPoPKeys().makeKey()
        let pushed = await Self.signIn(
            server: PushedAuthorizationTests.server(), keys: StaticClientKey(key),
            replies: [PushedAuthorizationTests.pushedAnswer])
        _ = try pushed.result.get()
        #expect(pushed.requests.map(\.url) == [PushedAuthorizationTests.parURL, Fixtures.server.tokenEndpoint])
        let identifiers = try pushed.requests.map { try Self.assertion(of: $0).claims["jti"]?.stringValue }
        #expect(Set(identifiers).count == 2)
        #expect(
            try pushed.requests.allSatisfy { try Self.assertion(of: $0).claims["aud"]?.stringValue == Fixtures.issuer })

        var server = Fixtures.server
        server.dpopSigningAlgorithms = ["ES256"]
        var configuration = DPoPSessionTests.configuration()
        configuration.clientKeys = StaticClientKey(key)
        let transport = RecordingTransport()
        let agent = RecordingURLAgent(transport) { _ in
            [DPoPSessionTests.useNonce("n-1"), DPoPSessionTests.dpopTokens]
        }
        _ = try await AuthSession.signIn(
            to: server, as: Self.client, scopes: ["email"], using: agent, store: InMemorySessionStore(),
            transport: transport, clock: .fixed(Fixtures.epoch), configuration: configuration)
        let exchanges = await transport.requests
        #expect(exchanges.count == 2, "use_dpop_nonce, then the exchange again")
        let retried = try exchanges.map { try Self.assertion(of: $0).claims["jti"]?.stringValue }
        #expect(Set(retried).count == 2, "the retry carries a new jti")
    }

    @Test("With the endpoint audience, each assertion names the URL it is sent to: the push's and the token endpoint's")
    func endpointAudience() async throws {
        let key = try await PlatformDPoPKeys().makeKey()
        var configuration = Self.configuration(keys: StaticClientKey(key))
        configuration.clientAssertionAudience = .endpoint
        let transport = RecordingTransport(replies: [PushedAuthorizationTests.pushedAnswer])
        let agent = RecordingURLAgent(transport) { _ in [PushedAuthorizationTests.tokens] }
        _ = try await AuthSession.signIn(
            to: PushedAuthorizationTests.server(), as: Self.client, scopes: ["email"], using: agent,
            store: InMemorySessionStore(), transport: transport, clock: .fixed(Fixtures.epoch),
            configuration: configuration)
        let requests = await transport.requests
        #expect(requests.map(\.url) == [PushedAuthorizationTests.parURL, Fixtures.server.tokenEndpoint])
        let audiences = try requests.map { try Self.assertion(of: $0).claims["aud"] }
        #expect(
            audiences == [
                .string(PushedAuthorizationTests.parURL.absoluteString),
                .string(Fixtures.server.tokenEndpoint.absoluteString),
            ])
        #expect(
            AuthorizationServerClient.endpointAudience(of: Fixtures.url("https://auth.example.com/revoke?x=1#f"))
                == "https://auth.example.com/revoke")
    }

    @Test("A private_key_jwt client with a secret never sends the secret")
    func secretNeverSent() async throws {
        var client = Self.client
        client.secret = ClientSecret("not-for-the-wire")
        let outcome = await Self.signIn(keys: StaticClientKey(try await PlatformDPoPKeys().makeKey()), client: client)
        _ = try outcome.result.get()
        let exchange = try #require(outcome.requests.first)
        let body = String(decoding: exchange.body ?? Data(), as: UTF8.self)
        #expect(!body.contains("not-for-the-wire") && exchange.headerFields["Authorization"] == nil)
    }

    @Test("No key source, or one that fails: the sign-in fails before the exchange is sent")
    func noKeyNothingSent() async throws {
        let missing = await Self.signIn(keys: nil)
        guard case .failure(let missingError) = missing.result else { throw Unexpected("signed in") }
        #expect((missingError as? BearerError)?.kind == .invalidConfiguration)
        #expect("\(missingError)".contains("clientKeys"))
        #expect(missing.requests.isEmpty)

        let failing = await Self.signIn(keys: FailingKeys())
        guard case .failure(let failingError) = failing.result else { throw Unexpected("signed in") }
        #expect((failingError as? BearerError)?.kind == .proofOfPossession)
        #expect(failing.requests.isEmpty)
    }

    @Test("A caller's own client_assertion parameters never reach the wire beside the client's credentials")
    func callerAssertionDropped() throws {
        let request = AuthorizationServerClient.formPost(
            to: Fixtures.server.tokenEndpoint,
            parameters: [FormParameter("client_assertion", "forged"), FormParameter("grant_type", "x")],
            as: Fixtures.confidentialClient, at: Fixtures.server)
        #expect(request.formBody["client_assertion"] == nil)
        #expect(request.formBody["grant_type"] == "x")
    }

    @Test("A registration answered with private_key_jwt, which Bearer never asks for, is refused")
    func registrationRefused() throws {
        let answer = Data(
            #"{"client_id":"c-1","token_endpoint_auth_method":"private_key_jwt","redirect_uris":["com.example.app:/cb"]}"#
                .utf8)
        let error = #expect(throws: BearerError.self) {
            _ = try ClientRegistration.client(from: answer, redirectURI: Fixtures.url("com.example.app:/cb"))
        }
        #expect(error?.kind == .registrationFailed)
        #expect(error?.description.contains("did not ask for") == true)
    }
}
