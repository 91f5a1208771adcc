import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore

@Suite("AuthState: exchange, refresh, freshness, persistence")
struct AuthStateTests {
    private let clock = WallClock.fixed(Fixtures.epoch)

    private func signedIn(
        expiresIn: Int = 3600,
        scope: String? = "openid email drive.readonly"
    ) async throws -> (AuthState, RecordingTransport, AuthorizationRequest) {
        let request = try Fixtures.request()
        let response = try AuthorizationResponse(
            redirect: Fixtures.redirect(for: request, query: "state=\(request.state)&code=the-code"),
            for: request
        )
        let scopeField = scope.map { #","scope":"\#($0)""# } ?? ""
        let transport = RecordingTransport(replies: [
            .json(
                200,
                #"{"access_token":"at-1","token_type":"Bearer","expires_in":\#(expiresIn),"refresh_token":"rt-1","id_token":"\#(Fixtures.idToken(for: request))"\#(scopeField),"x_custom":"kept"}"#
            )
        ])
        let state = try await AuthorizationServerClient(transport: transport, clock: clock).exchange(
            response, for: request)
        return (state, transport, request)
    }

    @Test("The code exchange builds the session: tokens, expiry from the clock, scopes, user")
    func exchangeBuildsSession() async throws {
        let (state, transport, request) = try await signedIn()
        #expect(state.accessToken?.value == "at-1")
        #expect(state.refreshToken?.value == "rt-1")
        #expect(state.accessTokenExpiresAt == Fixtures.epoch.addingTimeInterval(3600))
        #expect(state.accessTokenLifetime == 3600)
        #expect(state.grantedScopes == ["openid", "email", "drive.readonly"])
        #expect(state.requestedScopes == request.scopes)
        #expect(state.user == AuthState.User(subject: "user-1", email: "user@example.com", emailVerified: true))
        #expect(state.additionalParameters == ["x_custom": "kept"])
        let sent = await transport.requests
        #expect(sent.count == 1)
        #expect(sent.first?.formBody["code_verifier"] == request.pkce.verifier)
        #expect(sent.first?.formBody["code"] == "the-code")
    }

    @Test("Without scope in the response, the granted scopes are the requested ones")
    func exchangeWithoutScope() async throws {
        let (state, _, request) = try await signedIn(scope: nil)
        #expect(state.grantedScopes == request.scopes)
        #expect(state.hasGranted("drive.readonly"))
        #expect(!state.hasGranted("drive.file"))
    }

    @Test("An ID token with another nonce fails the exchange")
    func exchangeChecksNonce() async throws {
        let request = try Fixtures.request()
        let response = try AuthorizationResponse(
            redirect: Fixtures.redirect(for: request, query: "state=\(request.state)&code=c"),
            for: request
        )
        let forged = Fixtures.idToken(for: request, extra: ["nonce": "replayed"])
        let transport = RecordingTransport(replies: [
            .json(200, #"{"access_token":"a","token_type":"Bearer","id_token":"\#(forged)"}"#)
        ])
        let error = await #expect(throws: BearerError.self) {
            try await AuthorizationServerClient(transport: transport, clock: clock).exchange(response, for: request)
        }
        #expect(error?.kind == .invalidIDToken)
    }

    @Test("A rotated refresh token replaces the old one")
    func refreshRotates() async throws {
        let (state, _, _) = try await signedIn()
        let transport = RecordingTransport(replies: [
            .json(200, #"{"access_token":"at-2","token_type":"Bearer","expires_in":1800,"refresh_token":"rt-2"}"#)
        ])
        let later = WallClock.fixed(Fixtures.epoch.addingTimeInterval(4000))
        let refreshed = try await AuthorizationServerClient(transport: transport, clock: later).refresh(state)
        #expect(refreshed.accessToken?.value == "at-2")
        #expect(refreshed.refreshToken?.value == "rt-2")
        #expect(refreshed.accessTokenExpiresAt == Fixtures.epoch.addingTimeInterval(5800))
        #expect(refreshed.grantedScopes == state.grantedScopes)
        #expect(refreshed.user == state.user)
        let body = await transport.requests.first?.formBody
        #expect(body?["grant_type"] == "refresh_token")
        #expect(body?["refresh_token"] == "rt-1")
        #expect(state.accessToken?.value == "at-1", "the old value is unchanged")
    }

    @Test("A refresh without a new refresh token or scope keeps the old ones")
    func refreshKeepsOldRefreshTokenWhenResponseHasNone() async throws {
        let (state, _, _) = try await signedIn()
        let response = TokenResponse(accessToken: AccessToken("at-2"), expiresIn: 60)
        let refreshed = state.applying(refresh: response, clock: .fixed(Fixtures.epoch))
        #expect(refreshed.refreshToken?.value == "rt-1")
        #expect(refreshed.grantedScopes == state.grantedScopes)
        let narrowed = state.applying(refresh: response, requestedScopes: ["email"], clock: .fixed(Fixtures.epoch))
        #expect(narrowed.grantedScopes == ["email"])
        let listed = state.applying(
            refresh: TokenResponse(accessToken: AccessToken("at-3"), scopes: ["openid"]),
            clock: .fixed(Fixtures.epoch)
        )
        #expect(listed.grantedScopes == ["openid"])
        #expect(listed.accessTokenExpiresAt == nil)
    }

    @Test("A marked session fails at once without a request; no refresh token is its own error")
    func refreshPreconditions() async throws {
        let (state, _, _) = try await signedIn()
        let marked = state.markingSignInRequired(OAuthError(code: .invalidGrant, statusCode: 400))
        let transport = RecordingTransport()
        let error = await #expect(throws: BearerError.self) {
            try await AuthorizationServerClient(transport: transport).refresh(marked)
        }
        #expect(error?.kind == .signInRequired)
        #expect(error?.signInRequired == true)
        #expect(await transport.requests.isEmpty)

        var noRefresh = state
        noRefresh.refreshToken = nil
        let missing = await #expect(throws: BearerError.self) {
            try await AuthorizationServerClient(transport: transport).refresh(noRefresh)
        }
        #expect(missing?.kind == .signInRequired)
        #expect(await transport.requests.isEmpty)
    }

    @Test("invalid_grant on refresh reaches the caller as an OAuthError that asks for a new sign-in")
    func refreshInvalidGrant() async throws {
        let (state, _, _) = try await signedIn()
        let transport = RecordingTransport(replies: [.json(400, #"{"error":"invalid_grant"}"#)])
        let error = await #expect(throws: OAuthError.self) {
            try await AuthorizationServerClient(transport: transport).refresh(state)
        }
        #expect(error?.code == .invalidGrant)
        #expect(error?.signInRequired == true)
    }

    @Test("Freshness with the default leeway: fresh strictly before T−60 s, stale from T−60 s")
    func freshnessBoundaryForLongLivedToken() async throws {
        let (state, _, _) = try await signedIn(expiresIn: 3600)
        let expiry = Fixtures.epoch.addingTimeInterval(3600)
        #expect(!state.needsRefresh(at: expiry.addingTimeInterval(-60.001)))
        #expect(state.needsRefresh(at: expiry.addingTimeInterval(-60)))
        #expect(state.needsRefresh(at: expiry.addingTimeInterval(1)))
        #expect(state.effectiveLeeway() == 60)
    }

    @Test(
        "Short-lived tokens use half their lifetime as leeway",
        arguments: [(30, 15.0), (65, 32.5), (120, 60.0), (3600, 60.0)])
    func freshnessForShortLivedTokens(lifetime: Int, leeway: Double) async throws {
        let (state, _, _) = try await signedIn(expiresIn: lifetime)
        let expiry = Fixtures.epoch.addingTimeInterval(TimeInterval(lifetime))
        #expect(state.effectiveLeeway() == leeway)
        #expect(!state.needsRefresh(at: Fixtures.epoch))
        #expect(!state.needsRefresh(at: expiry.addingTimeInterval(-leeway - 0.001)))
        #expect(state.needsRefresh(at: expiry.addingTimeInterval(-leeway)))
        let restored = try AuthState(encoded: state.encoded())
        #expect(restored.needsRefresh(at: expiry.addingTimeInterval(-leeway)))
        #expect(!restored.needsRefresh(at: expiry.addingTimeInterval(-leeway - 0.001)))
    }

    @Test("No expiry means fresh while there is an access token; no token means stale")
    func freshnessWithoutExpiry() {
        let withToken = AuthState(server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("a"))
        #expect(!withToken.needsRefresh(at: .distantFuture))
        let withoutToken = AuthState(
            server: Fixtures.server, client: Fixtures.publicClient, refreshToken: RefreshToken("r"))
        #expect(withoutToken.needsRefresh(at: .distantPast))
    }

    @Test("The envelope round-trips exactly and carries version 1")
    func envelopeRoundTrip() async throws {
        let (state, _, _) = try await signedIn()
        let marked = state.markingSignInRequired(
            OAuthError(code: .invalidGrant, errorDescription: "gone", statusCode: 400))
        for value in [state, marked] {
            let data = try value.encoded()
            let restored = try AuthState(encoded: data)
            #expect(restored == value)
            #expect(try restored.encoded() == data)
            let object = try JSONDecoder().decode([String: JSONValue].self, from: data)
            #expect(object["version"] == 1)
        }
    }

    @Test("A future version and corrupt data are clear errors")
    func envelopeErrors() async throws {
        let (state, _, _) = try await signedIn()
        var object = try JSONDecoder().decode([String: JSONValue].self, from: state.encoded())
        object["version"] = 5
        let future = #expect(throws: BearerError.self) { try AuthState(encoded: JSONEncoder().encode(object)) }
        #expect(future?.kind == .unreadableSession)
        for corrupt in ["", "{", "[]", #"{"version":1}"#, #"{"version":"1"}"#] {
            let error = #expect(throws: BearerError.self) { try AuthState(encoded: Data(corrupt.utf8)) }
            #expect(error?.kind == .unreadableSession, "\(corrupt)")
        }
        object["version"] = 1
        object["idToken"] = "not-a-jwt"
        let badToken = #expect(throws: BearerError.self) { try AuthState(encoded: JSONEncoder().encode(object)) }
        #expect(badToken?.kind == .unreadableSession)
    }
}
