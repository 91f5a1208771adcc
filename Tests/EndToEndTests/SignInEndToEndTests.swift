import Bearer
import Foundation
import Testing

@testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The authorization-code flow with PKCE against a real django-oauth-toolkit server. Serialized,
/// because some tests compare the server's token-request counter for bearer-confidential (which
/// no other suite uses) before and after.
@Suite(
    "End to end: sign-in, exchange, refresh", .serialized, .enabled(if: TestServer.isConfigured, TestServer.skipReason))
struct SignInEndToEndTests {
    private let scopes = ["openid", "email", "profile", "drive.readonly"]

    /// Signs alice in through the browser and returns the pending request and the redirect.
    private func authorize(
        client clientID: String = "bearer-public",
        secret: String? = nil,
        scopes: [String]? = nil,
        redirectURI: URL? = nil,
        allow: Bool = true
    ) async throws -> (AuthorizationRequest, URL) {
        let server = try await TestServer.discover()
        let client = try TestServer.client(clientID, secret: secret)
        let request = try AuthorizationRequest(
            server: server,
            client: client,
            scopes: scopes ?? self.scopes,
            redirectURI: redirectURI
        )
        let redirect = try await Browser.authorize(request.url, allow: allow)
        return (request, redirect)
    }

    private func signIn() async throws -> AuthState {
        let (request, redirect) = try await authorize()
        let response = try AuthorizationResponse(redirect: redirect, for: request)
        return try await AuthorizationServerClient(transport: TestServer.transport).exchange(response, for: request)
    }

    @Test("Discovery finds the server's endpoints and its RFC 9207 promise")
    func discovery() async throws {
        let server = try await TestServer.discover()
        #expect(server.issuer == (try TestServer.issuer))
        #expect(server.authorizationEndpoint == (try TestServer.url("/o/authorize/")))
        #expect(server.tokenEndpoint == (try TestServer.url("/o/token/")))
        #expect(server.revocationEndpoint != nil)
        #expect(server.deviceAuthorizationEndpoint != nil)
        #expect(server.userinfoEndpoint != nil)
        #expect(server.sendsIssuerInAuthorizationResponse)
        let noInsecure = await #expect(throws: BearerError.self) {
            try await AuthorizationServerClient(transport: TestServer.transport).discover(issuer: try TestServer.issuer)
        }
        #expect(noInsecure?.kind == .insecureEndpoint)
    }

    @Test("Sign-in through login and consent, code exchange, and the protected endpoint answers with the user's email")
    func signInAndCallDrive() async throws {
        let (request, redirect) = try await authorize()
        let response = try AuthorizationResponse(redirect: redirect, for: request)
        #expect(response.issuer == (try TestServer.issuer).absoluteString)
        let state = try await AuthorizationServerClient(transport: TestServer.transport).exchange(
            response, for: request)
        #expect(state.user?.email == "alice@example.com")
        #expect(state.user?.emailVerified == true)
        #expect(state.refreshToken != nil)
        #expect(Set(state.grantedScopes) == Set(scopes))
        #expect(state.accessTokenLifetime ?? 0 > 0)

        let (status, body, _) = try await TestServer.driveAbout(token: state.accessToken)
        #expect(status == 200)
        guard case .object(let user)? = body["user"] else {
            Issue.record("no user in the Drive answer")
            return
        }
        #expect(user["emailAddress"] == "alice@example.com")
        #expect(body["storageQuota"] != nil)
    }

    @Test("Refresh rotates the refresh token; the old one replayed gives invalid_grant")
    func refreshRotation() async throws {
        let state = try await signIn()
        let refreshed = try await AuthorizationServerClient(transport: TestServer.transport).refresh(state)
        #expect(refreshed.refreshToken != state.refreshToken, "the server rotates refresh tokens")
        #expect(refreshed.accessToken != state.accessToken)
        #expect(refreshed.user == state.user)
        let (status, _, _) = try await TestServer.driveAbout(token: refreshed.accessToken)
        #expect(status == 200)

        let replay = await #expect(throws: OAuthError.self) {
            try await AuthorizationServerClient(transport: TestServer.transport).refresh(state)
        }
        #expect(replay?.code == .invalidGrant)
        #expect(replay?.signInRequired == true)
        #expect(replay?.statusCode == 400)
    }

    @Test("A refresh may ask for a narrower scope")
    func refreshNarrowerScope() async throws {
        let state = try await signIn()
        let narrowed = try await AuthorizationServerClient(transport: TestServer.transport).refresh(
            state, scopes: ["openid", "email"])
        #expect(Set(narrowed.grantedScopes) == ["openid", "email"])
        let (status, _, header) = try await TestServer.driveAbout(token: narrowed.accessToken)
        #expect(status == 403)
        #expect(header?.contains("insufficient_scope") == true)
    }

    @Test("A wrong code verifier gives invalid_grant")
    func wrongVerifier() async throws {
        let (request, redirect) = try await authorize()
        let response = try AuthorizationResponse(redirect: redirect, for: request)
        let wrong = TokenRequest(
            server: request.server,
            parameters: [
                FormParameter("grant_type", "authorization_code"),
                FormParameter("code", response.code.value),
                FormParameter("redirect_uri", request.redirectURI.absoluteString),
                FormParameter("code_verifier", PKCE().verifier),
            ],
            client: request.client
        )
        let error = await #expect(throws: OAuthError.self) {
            try await AuthorizationServerClient(transport: TestServer.transport).token(wrong)
        }
        #expect(error?.code == .invalidGrant)
    }

    @Test("A replayed authorization code gives invalid_grant")
    func replayedCode() async throws {
        let (request, redirect) = try await authorize()
        let response = try AuthorizationResponse(redirect: redirect, for: request)
        _ = try await AuthorizationServerClient(transport: TestServer.transport).exchange(response, for: request)
        let error = await #expect(throws: OAuthError.self) {
            try await AuthorizationServerClient(transport: TestServer.transport).exchange(response, for: request)
        }
        #expect(error?.code == .invalidGrant)
    }

    @Test("A tampered state is rejected before any token request")
    func tamperedState() async throws {
        let (request, redirect) = try await authorize(
            client: "bearer-confidential", secret: "bearer-confidential-test-secret")
        let before = try await TestServer.tokenRequestCount(client: "bearer-confidential")
        let tampered = try #require(
            URL(
                string: redirect.absoluteString.replacingOccurrences(of: "state=\(request.state)", with: "state=forged")
            )
        )
        #expect(tampered != redirect)
        let error = #expect(throws: BearerError.self) { try AuthorizationResponse(redirect: tampered, for: request) }
        #expect(error?.kind == .invalidRedirect)
        #expect(try await TestServer.tokenRequestCount(client: "bearer-confidential") == before)
    }

    @Test("A wrong or missing iss is rejected before any token request (RFC 9207)")
    func wrongIssuer() async throws {
        let (request, redirect) = try await authorize(
            client: "bearer-confidential", secret: "bearer-confidential-test-secret")
        let before = try await TestServer.tokenRequestCount(client: "bearer-confidential")
        var components = try #require(URLComponents(url: redirect, resolvingAgainstBaseURL: false))
        let items = try #require(components.queryItems)
        #expect(items.contains { $0.name == "iss" })
        components.queryItems = items.map {
            $0.name == "iss" ? URLQueryItem(name: "iss", value: "http://127.0.0.1:1/o") : $0
        }
        let wrong = try #require(components.url)
        let mismatch = #expect(throws: BearerError.self) { try AuthorizationResponse(redirect: wrong, for: request) }
        #expect(mismatch?.kind == .issuerMismatch)
        components.queryItems = items.filter { $0.name != "iss" }
        let missing = #expect(throws: BearerError.self) {
            try AuthorizationResponse(redirect: try #require(components.url), for: request)
        }
        #expect(missing?.kind == .invalidRedirect)
        #expect(try await TestServer.tokenRequestCount(client: "bearer-confidential") == before)
    }

    @Test("Denying consent comes back as access_denied, though the stock server sends no iss with it")
    func deniedConsent() async throws {
        let (request, redirect) = try await authorize(allow: false)
        #expect(request.server.sendsIssuerInAuthorizationResponse, "discovery advertises iss")
        let items = URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(!items.contains { $0.name == "iss" }, "django-oauth-toolkit 3.4.1 declines without iss")
        #expect(items.contains { $0.name == "state" && $0.value == request.state })
        let error = #expect(throws: OAuthError.self) { try AuthorizationResponse(redirect: redirect, for: request) }
        #expect(error?.code == .accessDenied)
    }

    @Test("A confidential client authenticates with client_secret_basic")
    func confidentialClient() async throws {
        let (request, redirect) = try await authorize(
            client: "bearer-confidential", secret: "bearer-confidential-test-secret")
        let response = try AuthorizationResponse(redirect: redirect, for: request)
        let state = try await AuthorizationServerClient(transport: TestServer.transport).exchange(
            response, for: request)
        #expect(state.user?.email == "alice@example.com")
        let refreshed = try await AuthorizationServerClient(transport: TestServer.transport).refresh(state)
        #expect(refreshed.accessToken != nil)

        let (wrongRequest, wrongRedirect) = try await authorize(client: "bearer-confidential", secret: "wrong-secret")
        let wrongResponse = try AuthorizationResponse(redirect: wrongRedirect, for: wrongRequest)
        let error = await #expect(throws: OAuthError.self) {
            try await AuthorizationServerClient(transport: TestServer.transport).exchange(
                wrongResponse, for: wrongRequest)
        }
        #expect(error?.code == .invalidClient)
    }

    @Test("A loopback redirect with the listener's port works (RFC 8252 §7.3)")
    func loopbackRedirect() async throws {
        let redirectURI = try #require(URL(string: "http://127.0.0.1:54321/callback"))
        let (request, redirect) = try await authorize(client: "bearer-trusted", redirectURI: redirectURI)
        #expect(redirect.port == 54321)
        let response = try AuthorizationResponse(redirect: redirect, for: request)
        let state = try await AuthorizationServerClient(transport: TestServer.transport).exchange(
            response, for: request)
        #expect(state.accessToken != nil)
    }

    @Test("The protected endpoint refuses a bad token with invalid_token")
    func badTokenRefused() async throws {
        let (status, _, header) = try await TestServer.driveAbout(token: AccessToken("not-a-real-token"))
        #expect(status == 401)
        #expect(header?.contains(#"error="invalid_token""#) == true)
    }
}
