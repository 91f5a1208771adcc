import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Testing) @testable import BearerCore

/// The client-side checks of the OpenID conformance suite's FAPI 2.0 Security Profile client test
/// plan, one test per module (named `fapi2-security-profile-final-…` there), each played by a
/// hostile server on the fake transport. Modules about PAR, `private_key_jwt` and the resource
/// server's DPoP nonce are not mirrored here.
@Suite("FAPI 2.0 client conformance modules: a hostile server's ID tokens and redirects")
struct FAPI2ClientConformanceTests {
    typealias Outcome = (
        result: Result<AuthSession, any Error>, requests: [TransportRequest], store: InMemorySessionStore
    )

    /// Signs in with an ID token for the request, changed by `changes`, and the issuer's key set.
    static func signIn(
        by issuer: TestIssuer,
        configuration: AuthSession.Configuration = IDTokenSignatureTests.configuration,
        changing changes: [String: JSONValue?] = [:],
        header: [String: JSONValue]? = nil,
        tokens: (@Sendable (String) -> RecordingTransport.Reply)? = nil
    ) async -> Outcome {
        await IDTokenSignatureTests.signIn(configuration: configuration) { request in
            let idToken = try await issuer.idToken(for: request, changing: changes, header: header)
            let answer = tokens?(idToken) ?? IDTokenSignatureTests.tokens(idToken)
            return [answer, .json(200, issuer.keySet())]
        }
    }

    static func expectRefusedClaim(_ outcome: Outcome, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        try await IDTokenSignatureTests.expectRefused(outcome, .invalidIDToken, sourceLocation: sourceLocation)
    }

    @Test("client-test-happy-path: a well-signed ID token with valid claims signs in and is saved")
    func happyPath() async throws {
        let outcome = await Self.signIn(by: try await TestIssuer.make())
        let session = try outcome.result.get()
        #expect(await session.user?.email == "user@example.com")
        #expect(try await outcome.store.keys().count == 1)
    }

    @Test("client-test-invalid-iss: an ID token from another issuer is refused")
    func invalidIssuer() async throws {
        try await Self.expectRefusedClaim(
            await Self.signIn(by: try await TestIssuer.make(), changing: ["iss": "https://attacker.example.com"]))
    }

    @Test("client-test-invalid-missing-iss: an ID token without iss is refused")
    func missingIssuer() async throws {
        try await Self.expectRefusedClaim(await Self.signIn(by: try await TestIssuer.make(), changing: ["iss": nil]))
    }

    @Test("client-test-invalid-aud: an ID token for another client is refused")
    func invalidAudience() async throws {
        try await Self.expectRefusedClaim(
            await Self.signIn(by: try await TestIssuer.make(), changing: ["aud": "another-client"]))
    }

    @Test("client-test-invalid-missing-aud: an ID token without aud is refused")
    func missingAudience() async throws {
        try await Self.expectRefusedClaim(await Self.signIn(by: try await TestIssuer.make(), changing: ["aud": nil]))
    }

    @Test("client-test-invalid-secondary-aud: an extra audience is refused unless azp names the client")
    func secondaryAudience() async throws {
        let audiences: JSONValue = .array([.string(Fixtures.publicClient.id), "https://untrusted.example.com"])
        let issuer = try await TestIssuer.make()
        try await Self.expectRefusedClaim(await Self.signIn(by: issuer, changing: ["aud": audiences]))
        try await Self.expectRefusedClaim(
            await Self.signIn(by: issuer, changing: ["aud": audiences, "azp": "another"]))
    }

    @Test("client-test-valid-aud-as-array: aud as an array holding only the client signs in")
    func audienceAsArray() async throws {
        let outcome = await Self.signIn(
            by: try await TestIssuer.make(), changing: ["aud": .array([.string(Fixtures.publicClient.id)])])
        _ = try outcome.result.get()
    }

    @Test("client-test-invalid-expired-exp: an expired ID token is refused")
    func expired() async throws {
        try await Self.expectRefusedClaim(
            await Self.signIn(
                by: try await TestIssuer.make(),
                changing: ["exp": .number(Fixtures.epoch.timeIntervalSince1970 - 3600)]))
    }

    @Test("client-test-invalid-missing-exp: an ID token without exp is refused")
    func missingExpiry() async throws {
        try await Self.expectRefusedClaim(await Self.signIn(by: try await TestIssuer.make(), changing: ["exp": nil]))
    }

    @Test("client-test-invalid-nonce: an ID token for another request's nonce is refused")
    func invalidNonce() async throws {
        try await Self.expectRefusedClaim(
            await Self.signIn(by: try await TestIssuer.make(), changing: ["nonce": "another-request"]))
    }

    @Test("client-test-invalid-missing-nonce: an ID token without the request's nonce is refused")
    func missingNonce() async throws {
        try await Self.expectRefusedClaim(
            await Self.signIn(by: try await TestIssuer.make(), changing: ["nonce": nil]))
    }

    @Test("client-test-invalid-null-alg: an unsigned ID token (alg none) is refused before any key is fetched")
    func nullAlgorithm() async throws {
        let issuer = try await TestIssuer.make()
        let outcome = await IDTokenSignatureTests.signIn { request in
            let signed = try await issuer.idToken(for: request, header: ["alg": "none", "typ": "JWT"])
            let unsigned = signed.split(separator: ".").prefix(2).joined(separator: ".") + "."
            return [IDTokenSignatureTests.tokens(unsigned)]
        }
        try await IDTokenSignatureTests.expectRefused(outcome, .invalidSignature)
        #expect(!outcome.requests.contains { $0.url.path == "/jwks" })
    }

    @Test("client-test-invalid-alternate-alg: a validly signed token in an algorithm not accepted is refused")
    func alternateAlgorithm() async throws {
        let issuer = try await TestIssuer.make()
        var onlyPS256 = IDTokenSignatureTests.configuration
        onlyPS256.idTokenSignatures.algorithms = [.ps256]
        let outcome = await Self.signIn(by: issuer, configuration: onlyPS256)
        try await IDTokenSignatureTests.expectRefused(outcome, .invalidSignature)
        guard case .failure(let error) = outcome.result else { return }
        #expect("\(error)".contains("not among the accepted algorithms (PS256)"))
        _ = try await Self.signIn(by: issuer).result.get()
    }

    @Test("client-test-token-endpoint-response-without-expires_in: a token answer without expires_in is used")
    func withoutExpiresIn() async throws {
        let outcome = await Self.signIn(by: try await TestIssuer.make()) { idToken in
            .json(
                200, #"{"access_token":"at-1","token_type":"Bearer","scope":"openid email","id_token":"\#(idToken)"}"#)
        }
        let session = try outcome.result.get()
        #expect(await session.state.accessToken != nil)
    }

    @Test("client-test-token-type-case-insensitivity: token_type \"bearer\" is the Bearer scheme")
    func tokenTypeCase() async throws {
        let outcome = await Self.signIn(by: try await TestIssuer.make()) { idToken in
            .json(
                200, #"{"access_token":"at-1","token_type":"bEaReR","scope":"openid email","id_token":"\#(idToken)"}"#)
        }
        #expect(try await outcome.result.get().state.accessTokenType == .bearer)
    }

    /// Signs in at a server that promises RFC 9207's `iss`, answered with `query`.
    static func signInPromisingIssuer(_ query: @escaping @Sendable (AuthorizationRequest) -> String) async -> Outcome {
        var server = IDTokenSignatureTests.server
        server.sendsIssuerInAuthorizationResponse = true
        return await IDTokenSignatureTests.signIn(server: server, query: query) { _ in [] }
    }

    /// Expects a sign-in refused at the redirect, before any code was redeemed.
    static func expectRefusedRedirect(
        _ outcome: Outcome, _ kind: BearerError.Kind, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        guard case .failure(let error) = outcome.result else {
            Issue.record("the sign-in succeeded", sourceLocation: sourceLocation)
            return
        }
        #expect((error as? BearerError)?.kind == kind, "\(error)", sourceLocation: sourceLocation)
        #expect(outcome.requests.isEmpty, "the code was redeemed", sourceLocation: sourceLocation)
        #expect(try await outcome.store.keys().isEmpty, sourceLocation: sourceLocation)
    }

    @Test("client-test-invalid-authorization-response-iss: a redirect from another issuer is refused unredeemed")
    func invalidResponseIssuer() async throws {
        try await Self.expectRefusedRedirect(
            await Self.signInPromisingIssuer { "state=\($0.state)&code=c&iss=https%3A%2F%2Fattacker.example.com" },
            .issuerMismatch)
    }

    @Test("client-test-remove-authorization-response-iss: a promised iss left out is refused unredeemed")
    func removedResponseIssuer() async throws {
        try await Self.expectRefusedRedirect(
            await Self.signInPromisingIssuer { "state=\($0.state)&code=c" }, .invalidRedirect)
    }

    @Test("client-test-ensure-authorization-response-with-invalid-state-fails: another state is refused")
    func invalidState() async throws {
        try await Self.expectRefusedRedirect(
            await Self.signInPromisingIssuer { _ in "state=forged&code=c&iss=https%3A%2F%2Fauth.example.com" },
            .invalidRedirect)
    }

    @Test("client-test-ensure-authorization-response-with-invalid-missing-state-fails: no state is refused")
    func missingState() async throws {
        try await Self.expectRefusedRedirect(
            await Self.signInPromisingIssuer { _ in "code=c&iss=https%3A%2F%2Fauth.example.com" }, .invalidRedirect)
    }
}
