import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Migration) @_spi(Testing) @testable import BearerCore

/// The FAPI 2.0 profile switch on the fake transport: a sign-in that keeps every client rule,
/// and each setting or server that breaks one refused before anything is sent, naming the rule.
@Suite("FAPI 2.0 profile: the client rules, checked in one place before anything is sent")
struct FAPI2ProfileTests {
    /// A server that offers what the profile asks for: PAR, DPoP, `iss` on redirects, keys.
    static var server: AuthorizationServer {
        var server = PushedAuthorizationTests.server().publishingKeys(at: IDTokenSignatureTests.jwksURL)
        server.sendsIssuerInAuthorizationResponse = true
        server.dpopSigningAlgorithms = ["ES256"]
        return server
    }

    static let client = ClientAssertionTests.client

    /// The profile's configuration with the platform's keys and verifier, as `import Bearer` fills in.
    static func configuration() async throws -> AuthSession.Configuration {
        var configuration = AuthSession.Configuration.fapi2(
            clientKeys: StaticClientKey(try await PlatformDPoPKeys().makeKey()))
        configuration.dpop.keys = PlatformDPoPKeys()
        configuration.idTokenSignatures.verifier = PlatformSignatureVerifier()
        return configuration
    }

    static func dpopTokens(_ idToken: String, type: String = "DPoP") -> RecordingTransport.Reply {
        .json(
            200,
            #"{"access_token":"at-1","token_type":"\#(type)","expires_in":3600,"refresh_token":"rt-1","#
                + #""scope":"openid email","id_token":"\#(idToken)"}"#)
    }

    typealias Outcome = (
        result: Result<AuthSession, any Error>, requests: [TransportRequest], store: InMemorySessionStore
    )

    static func signIn(
        configuration: AuthSession.Configuration, server: AuthorizationServer = server, client: Client = client,
        tokenType: String = "DPoP", pushes: Bool = true
    ) async throws -> Outcome {
        let issuer = try await TestIssuer.make()
        let store = InMemorySessionStore()
        let transport = RecordingTransport(replies: pushes ? [PushedAuthorizationTests.pushedAnswer] : [])
        let agent = AnsweringAgent(
            transport, query: { "state=\($0.state)&code=the-code&iss=\(Fixtures.issuer)" },
            answers: { request in
                [
                    dpopTokens(try await issuer.idToken(for: request), type: tokenType),
                    .json(200, issuer.keySet()), .json(200, "{}"), .json(200, "{}"),
                ]
            })
        let result: Result<AuthSession, any Error>
        do {
            result = .success(
                try await AuthSession.signIn(
                    to: server, as: client, scopes: ["openid", "email"], using: agent, store: store,
                    transport: transport, clock: .fixed(Fixtures.epoch), configuration: configuration))
        } catch {
            result = .failure(error)
        }
        return (result, await transport.requests, store)
    }

    @Test("A sign-in keeping every rule: pushed with an assertion, DPoP-bound, iss checked, ID token verified")
    func keepsEveryRule() async throws {
        let outcome = try await Self.signIn(configuration: try await Self.configuration())
        let session = try outcome.result.get()
        #expect(outcome.requests.map(\.url.path) == ["/par", "/token", "/jwks"])
        let push = try #require(outcome.requests.first)
        #expect(push.formBody["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        #expect(push.formBody["code_challenge_method"] == "S256")
        #expect(push.formBody["dpop_jkt"] != nil)
        let token = try #require(outcome.requests.dropFirst().first)
        #expect(token.headerFields["DPoP"] != nil)
        #expect(token.formBody["client_assertion"] != nil && token.formBody["client_secret"] == nil)
        #expect(await session.state.accessTokenType == .dpop)
        #expect(try await outcome.store.keys() == ["default"])
    }

    /// A configuration or server that breaks one rule, and the rule its refusal names.
    struct Breach: Sendable, CustomTestStringConvertible {
        let name: String
        let rule: FAPI2Rule
        let configure: @Sendable (inout AuthSession.Configuration, inout AuthorizationServer, inout Client) -> Void
        var testDescription: String { name }
    }

    static let breaches: [Breach] = [
        Breach(name: "pushing turned off", rule: .pushedAuthorizationRequests) { c, _, _ in
            c.pushedAuthorization = .never
        },
        Breach(name: "a server without a PAR endpoint", rule: .pushedAuthorizationRequests) { _, s, _ in
            s.pushedAuthorizationRequestEndpoint = nil
        },
        Breach(name: "DPoP only where advertised", rule: .senderConstrainedTokens) { c, _, _ in
            c.dpop.use = .whenAdvertised
        },
        Breach(name: "no DPoP key source", rule: .senderConstrainedTokens) { c, _, _ in c.dpop.keys = nil },
        Breach(name: "a server taking other DPoP algorithms", rule: .senderConstrainedTokens) { _, s, _ in
            s.dpopSigningAlgorithms = ["RS256"]
        },
        Breach(name: "a public client", rule: .clientAuthentication) { _, _, client in
            client = Fixtures.publicClient
        },
        Breach(name: "a client secret", rule: .clientAuthentication) { _, _, client in
            client = Fixtures.confidentialClient
        },
        Breach(name: "no client key source", rule: .clientAuthentication) { c, _, _ in c.clientKeys = nil },
        Breach(name: "assertions naming the endpoint", rule: .clientAuthentication) { c, _, _ in
            c.clientAssertionAudience = .endpoint
        },
        Breach(name: "a server not promising iss", rule: .issuerInAuthorizationResponse) { _, s, _ in
            s.sendsIssuerInAuthorizationResponse = false
        },
        Breach(name: "ID-token checks only where keys are published", rule: .signedIDTokens) { c, _, _ in
            c.idTokenSignatures.requirement = .whenServerPublishesKeys
        },
        Breach(name: "no signature verifier", rule: .signedIDTokens) { c, _, _ in c.idTokenSignatures.verifier = nil },
        Breach(name: "RS256 ID tokens accepted", rule: .signingAlgorithms) { c, _, _ in
            c.idTokenSignatures.algorithms = [.es256, .rs256]
        },
        Breach(name: "no algorithm accepted", rule: .signingAlgorithms) { c, _, _ in
            c.idTokenSignatures.algorithms = []
        },
    ]

    @Test("Each broken rule refuses the sign-in before anything is sent, naming the rule", arguments: breaches)
    func refusesBrokenRule(_ breach: Breach) async throws {
        var configuration = try await Self.configuration()
        var server = Self.server
        var client = Self.client
        breach.configure(&configuration, &server, &client)
        let outcome = try await Self.signIn(configuration: configuration, server: server, client: client)
        guard case .failure(let error) = outcome.result else {
            Issue.record("the sign-in succeeded")
            return
        }
        let bearerError = try #require(error as? BearerError, "\(error)")
        #expect(bearerError.kind == .invalidConfiguration)
        #expect(bearerError.reason.contains("FAPI 2.0") && bearerError.reason.contains(breach.rule.rawValue))
        #expect(outcome.requests.isEmpty, "sent: \(outcome.requests.map(\.url))")
        #expect(try await outcome.store.keys().isEmpty)
    }

    @Test("The same settings under the standard profile sign in: the rules are the profile's, not the settings'")
    func standardProfileAllowsThem() async throws {
        var configuration = try await Self.configuration()
        configuration.securityProfile = .standard
        configuration.pushedAuthorization = .never
        let outcome = try await Self.signIn(configuration: configuration, client: Fixtures.publicClient, pushes: false)
        _ = try outcome.result.get()
        #expect(outcome.requests.map(\.url.path) == ["/token", "/jwks"])
    }

    @Test("A Bearer-typed token answer is not a fallback: the sign-in fails and its grant is revoked")
    func bearerAnswerRefused() async throws {
        let outcome = try await Self.signIn(configuration: try await Self.configuration(), tokenType: "Bearer")
        try await IDTokenSignatureTests.expectRefused(
            (outcome.result, outcome.requests, outcome.store), .proofOfPossession)
    }

    @Test("A device sign-in is outside the profile: refused before the device endpoint is asked")
    func deviceSignInRefused() async throws {
        var server = Self.server
        server.deviceAuthorizationEndpoint = Fixtures.url("https://auth.example.com/device")
        let transport = RecordingTransport()
        let error = await #expect(throws: BearerError.self) {
            _ = try await AuthSession.signInWithDeviceCode(
                to: server, as: Self.client, scopes: ["openid"], store: InMemorySessionStore(), transport: transport,
                clock: .fixed(Fixtures.epoch), configuration: try await Self.configuration()
            ) { _ in }
        }
        #expect(error?.kind == .invalidConfiguration)
        #expect(error?.reason.contains(FAPI2Rule.authorizationCodeFlow.rawValue) == true)
        #expect(await transport.requests.isEmpty)
    }

    @Test("A saved Bearer session is not refreshed under the profile: nothing is sent and the session is kept")
    func bearerSessionNotRefreshed() async throws {
        let state = AuthState(
            server: Self.server, client: Self.client, accessToken: AccessToken("at-0"),
            accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(-10), refreshToken: RefreshToken("rt-0"),
            grantedScopes: ["openid"], user: AuthState.User(subject: "user-1"))
        let store = InMemorySessionStore()
        let transport = RecordingTransport()
        let session = try await AuthSession.save(
            state, to: store, key: "k", transport: transport, clock: .fixed(Fixtures.epoch),
            configuration: try await Self.configuration())
        let error = await #expect(throws: BearerError.self) { _ = try await session.validAccessToken() }
        #expect(error?.kind == .invalidConfiguration)
        #expect(error?.reason.contains(FAPI2Rule.senderConstrainedTokens.rawValue) == true)
        #expect(await transport.requests.isEmpty)
        #expect(try await store.load(key: "k")?.refreshToken == RefreshToken("rt-0"))
    }
}
