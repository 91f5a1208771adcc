import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Testing) @testable import BearerCore

/// An agent that, shown a request, queues the server's answers made for it (a token answer whose ID
/// token carries the request's nonce, a key set, …) and approves it.
final class AnsweringAgent: AuthorizationAgent, @unchecked Sendable {
    private let transport: RecordingTransport
    private let answers: @Sendable (AuthorizationRequest) async throws -> [RecordingTransport.Reply]
    private let query: @Sendable (AuthorizationRequest) -> String

    init(
        _ transport: RecordingTransport,
        query: @escaping @Sendable (AuthorizationRequest) -> String = { "state=\($0.state)&code=the-code" },
        answers: @escaping @Sendable (AuthorizationRequest) async throws -> [RecordingTransport.Reply]
    ) {
        self.transport = transport
        self.query = query
        self.answers = answers
    }

    func present(_ request: AuthorizationRequest) async throws -> URL {
        for reply in try await answers(request) { await transport.enqueue(reply) }
        return Fixtures.redirect(for: request, query: query(request))
    }
}

/// Sign-ins and refreshes whose ID tokens come from a hostile or broken server, on the fake
/// transport: each ID token's signature is checked against the server's published keys before
/// any claim is read; a refused one fails the sign-in with a typed error and revokes its grant.
@Suite("ID-token signatures: checked against the server's keys before any claim")
struct IDTokenSignatureTests {
    static let jwksURL = Fixtures.url("https://auth.example.com/jwks")
    static let server = Fixtures.server.publishingKeys(at: jwksURL)

    static var configuration: AuthSession.Configuration {
        var configuration = AuthSession.Configuration()
        configuration.idTokenSignatures.verifier = PlatformSignatureVerifier()
        return configuration
    }

    static func tokens(_ idToken: String, refreshToken: String = "rt-1") -> RecordingTransport.Reply {
        .json(
            200,
            #"{"access_token":"at-1","token_type":"Bearer","expires_in":3600,"refresh_token":"\#(refreshToken)","#
                + #""scope":"openid email","id_token":"\#(idToken)"}"#)
    }

    /// Signs in with the answers `answers` makes; returns the outcome, the requests sent and the store.
    static func signIn(
        configuration: AuthSession.Configuration = configuration,
        server: AuthorizationServer = server,
        at now: Date = Fixtures.epoch,
        query: @escaping @Sendable (AuthorizationRequest) -> String = { "state=\($0.state)&code=the-code" },
        _ answers: @escaping @Sendable (AuthorizationRequest) async throws -> [RecordingTransport.Reply]
    ) async -> (result: Result<AuthSession, any Error>, requests: [TransportRequest], store: InMemorySessionStore) {
        let store = InMemorySessionStore()
        let transport = RecordingTransport()
        let agent = AnsweringAgent(transport, query: query, answers: answers)
        let result: Result<AuthSession, any Error>
        do {
            result = .success(
                try await AuthSession.signIn(
                    to: server, as: Fixtures.publicClient, scopes: ["openid", "email"], using: agent, store: store,
                    transport: transport, clock: .fixed(now), configuration: configuration))
        } catch {
            result = .failure(error)
        }
        return (result, await transport.requests, store)
    }

    /// Expects a refused sign-in of `kind` that revoked its grant and saved nothing.
    static func expectRefused(
        _ outcome: (result: Result<AuthSession, any Error>, requests: [TransportRequest], store: InMemorySessionStore),
        _ kind: BearerError.Kind,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        guard case .failure(let error) = outcome.result else {
            Issue.record("the sign-in succeeded", sourceLocation: sourceLocation)
            return
        }
        #expect((error as? BearerError)?.kind == kind, "\(error)", sourceLocation: sourceLocation)
        #expect(
            outcome.requests.last?.url.path == "/revoke", "the grant was not revoked", sourceLocation: sourceLocation)
        #expect(try await outcome.store.keys().isEmpty, sourceLocation: sourceLocation)
    }

    @Test("A token signed by the server's published key signs in; the key set is fetched after the token answer")
    func validSignatureSignsIn() async throws {
        let issuer = try await TestIssuer.make()
        let outcome = await Self.signIn { request in
            [Self.tokens(try await issuer.idToken(for: request)), .json(200, issuer.keySet())]
        }
        let session = try outcome.result.get()
        #expect(await session.user?.subject == "user-1")
        #expect(outcome.requests.map(\.url.path) == ["/token", "/jwks"])
        #expect(outcome.requests[1].method == .get)
    }

    @Test("With no verifier configured and checks not required, the ID token is read as before, without keys")
    func noVerifierReadsAsBefore() async throws {
        let issuer = try await TestIssuer.make()
        let outcome = await Self.signIn(configuration: AuthSession.Configuration()) { request in
            [Self.tokens(try await issuer.idToken(for: request))]
        }
        _ = try outcome.result.get()
        #expect(outcome.requests.map(\.url.path) == ["/token"])
    }

    @Test("Required checks without a verifier, or at a server without jwks_uri, fail the sign-in and revoke")
    func requiredChecksNeedKeysAndVerifier() async throws {
        let issuer = try await TestIssuer.make()
        var noVerifier = AuthSession.Configuration()
        noVerifier.idTokenSignatures.requirement = .required
        try await Self.expectRefused(
            await Self.signIn(configuration: noVerifier) { [Self.tokens(try await issuer.idToken(for: $0))] },
            .invalidConfiguration)
        var required = Self.configuration
        required.idTokenSignatures.requirement = .required
        try await Self.expectRefused(
            await Self.signIn(configuration: required, server: Fixtures.server) {
                [Self.tokens(try await issuer.idToken(for: $0))]
            },
            .invalidSignature)
    }

    @Test("A token with the published kid but another key's signature is refused (invalid signature)")
    func invalidSignature() async throws {
        let issuer = try await TestIssuer.make()
        let forger = try await TestIssuer.make(keyID: issuer.keyID)
        try await Self.expectRefused(
            await Self.signIn { [Self.tokens(try await forger.idToken(for: $0)), .json(200, issuer.keySet())] },
            .invalidSignature)
    }

    @Test("An unknown kid in a set fetched just now is refused without asking again")
    func unknownKeyID() async throws {
        let issuer = try await TestIssuer.make()
        let stranger = try await TestIssuer.make(keyID: "key-unknown")
        let outcome = await Self.signIn { request in
            [Self.tokens(try await stranger.idToken(for: request)), .json(200, issuer.keySet())]
        }
        try await Self.expectRefused(outcome, .invalidSignature)
        #expect(outcome.requests.map(\.url.path) == ["/token", "/jwks", "/revoke", "/revoke"])
    }

    @Test("A key the server rotated in is found by fetching the kept set again for its kid, a minute on")
    func rotatedKeyIsFetched() async throws {
        let old = try await TestIssuer.make(keyID: "old")
        let new = try await TestIssuer.make(keyID: "new")
        let configuration = Self.configuration
        let first = await Self.signIn(configuration: configuration) { request in
            [Self.tokens(try await old.idToken(for: request)), .json(200, old.keySet())]
        }
        _ = try first.result.get()
        let soon = await Self.signIn(configuration: configuration, at: Fixtures.epoch.addingTimeInterval(30)) {
            request in [Self.tokens(try await new.idToken(for: request))]
        }
        try await Self.expectRefused(soon, .invalidSignature)
        #expect(soon.requests.map(\.url.path) == ["/token", "/revoke", "/revoke"])
        let later = await Self.signIn(configuration: configuration, at: Fixtures.epoch.addingTimeInterval(90)) {
            request in [Self.tokens(try await new.idToken(for: request)), .json(200, new.keySet(adding: [old.jwk]))]
        }
        _ = try later.result.get()
        #expect(later.requests.map(\.url.path) == ["/token", "/jwks"])
    }

    @Test("HS256 (the public key taken as an HMAC secret) is refused: no algorithm confusion")
    func hmacWithPublicKey() async throws {
        let issuer = try await TestIssuer.make()
        try await Self.expectRefused(
            await Self.signIn { request in
                [Self.tokens(try await issuer.idToken(for: request, header: ["alg": "HS256", "kid": "key-1"]))]
            },
            .invalidSignature)
    }

    @Test("A token naming its own key (jku, jwk, x5u) is refused")
    func ownKeyReferences() async throws {
        let issuer = try await TestIssuer.make()
        for member in ["jku", "jwk", "x5u"] {
            let value: JSONValue = member == "jwk" ? .object(["kty": "EC"]) : "https://evil.example/keys"
            try await Self.expectRefused(
                await Self.signIn { request in
                    [Self.tokens(try await issuer.idToken(for: request, header: ["alg": "ES256", member: value]))]
                },
                .invalidSignature)
        }
    }

    @Test("A key set over 64 KiB is refused and the grant revoked")
    func keySetTooLarge() async throws {
        let issuer = try await TestIssuer.make()
        let large = #"{"keys":[],"padding":""# + String(repeating: "x", count: 70_000) + #""}"#
        try await Self.expectRefused(
            await Self.signIn { [Self.tokens(try await issuer.idToken(for: $0)), .json(200, large)] },
            .invalidResponse)
    }

    @Test("A key set answered by a redirect to http is refused as insecure, one to https as not followed")
    func keySetRedirects() async throws {
        let issuer = try await TestIssuer.make()
        try await Self.expectRefused(
            await Self.signIn { request in
                [
                    Self.tokens(try await issuer.idToken(for: request)),
                    .response(status: 302, headers: ["Location": "http://keys.example.com/jwks"], body: Data()),
                ]
            },
            .insecureEndpoint)
        try await Self.expectRefused(
            await Self.signIn { request in
                [
                    Self.tokens(try await issuer.idToken(for: request)),
                    .response(status: 302, headers: ["Location": "https://keys.example.com/jwks"], body: Data()),
                ]
            },
            .invalidResponse)
    }

    @Test("A key set the server cannot serve fails the sign-in as a network error and revokes the grant")
    func keySetUnreachable() async throws {
        let issuer = try await TestIssuer.make()
        try await Self.expectRefused(
            await Self.signIn { [Self.tokens(try await issuer.idToken(for: $0)), .failure(.cannotConnectToHost)] },
            .network)
    }
}
