import Bearer
import BearerTestSupport
import BearerTesting
import Foundation
import Testing

@testable import BearerCore

/// What an app author reaches for, tried as the anchors' own test cases try it: the redirect's
/// extra parameters, a session from tokens obtained elsewhere, UserInfo with its `sub` check, the
/// device flow's interval and waits, a request for a custom agent's test, decoding that checks as
/// the initializer does, and the challenge's description on the typed error.
@Suite("The API app authors reach for")
struct AppAuthorAPITests {
    private static var openIDServer: AuthorizationServer {
        var server = Fixtures.server
        server.userinfoEndpoint = Fixtures.url("https://auth.example.com/userinfo")
        server.deviceAuthorizationEndpoint = Fixtures.url("https://auth.example.com/device")
        return server
    }

    @Test("The redirect's other parameters (authuser, hd, session_state) are kept on the session and saved")
    func redirectParameters() async throws {
        let request = try Fixtures.request(scopes: ["email"])
        let redirect = Fixtures.redirect(
            for: request, query: "state=\(request.state)&code=c&authuser=1&hd=example.com&session_state=s1")
        let transport = RecordingTransport(replies: [
            .json(200, #"{"access_token":"at","token_type":"Bearer","expires_in":3600,"refresh_token":"rt"}"#)
        ])
        let state = try await AuthorizationServerClient(transport: transport, clock: .fixed(Fixtures.epoch))
            .exchange(try AuthorizationResponse(redirect: redirect, for: request), for: request)
        #expect(state.authorizationResponseParameters == ["authuser": "1", "hd": "example.com", "session_state": "s1"])
        #expect(try AuthState(encoded: state.encoded()) == state, "kept when the session is saved")
    }

    @Test("A session from tokens obtained elsewhere is checked as a token answer is")
    func stateFromParts() throws {
        let state = try AuthState(
            server: Fixtures.server, client: Fixtures.publicClient, accessToken: "at-elsewhere", expiresIn: 3600,
            refreshToken: "rt-elsewhere", scopes: ["email"], clock: .fixed(Fixtures.epoch))
        #expect(state.accessToken == AccessToken("at-elsewhere"))
        #expect(state.accessTokenExpiresAt == Fixtures.epoch.addingTimeInterval(3600))
        #expect(state.refreshToken == RefreshToken("rt-elsewhere"))
        #expect(state.grantedScopes == ["email"])
        let refused: [(String, String, TimeInterval?, [String], BearerError.Kind)] = [
            ("at with space", "Bearer", 3600, ["email"], .invalidResponse),
            ("at", "MAC", 3600, ["email"], .invalidResponse),
            ("at", "Bearer", -5, ["email"], .invalidResponse),
            ("at", "Bearer", 3600, ["a b"], .invalidScope),
        ]
        for (token, type, lifetime, scopes, kind) in refused {
            let error = #expect(throws: BearerError.self, "\(type) \(scopes)") {
                try AuthState(
                    server: Fixtures.server, client: Fixtures.publicClient, accessToken: token, tokenType: type,
                    expiresIn: lifetime, scopes: scopes)
            }
            #expect(error?.kind == kind, "\(type) \(String(describing: lifetime)) \(scopes)")
        }
        let request = try Fixtures.request()
        let otherAudience = Fixtures.idToken(for: request, extra: ["aud": .string("another-client")])
        let badIDToken = #expect(throws: BearerError.self) {
            try AuthState(
                server: Fixtures.server, client: Fixtures.publicClient, accessToken: "at", idToken: otherAudience,
                scopes: ["openid"], clock: .fixed(Fixtures.epoch))
        }
        #expect(badIDToken?.kind == .invalidIDToken)
    }

    @Test("UserInfo is read with a fresh token, and an answer about another user is refused")
    func userInfo() async throws {
        let request = try Fixtures.request(server: Self.openIDServer)
        var state = try AuthState(
            server: Self.openIDServer, client: Fixtures.publicClient, accessToken: "at", expiresIn: 3600,
            refreshToken: "rt", idToken: Fixtures.idToken(for: request), scopes: ["openid", "email"],
            clock: .fixed(Fixtures.epoch))
        state.metadata = [:]
        let transport = RecordingTransport(replies: [
            .json(200, #"{"sub":"user-1","name":"Ada","given_name":"Ada"}"#),
            .json(200, #"{"sub":"user-2","name":"Mallory"}"#),
        ])
        let session = try await AuthSession.save(
            state, to: InMemorySessionStore(), transport: transport, clock: .fixed(Fixtures.epoch))
        let user = try await session.userInfo()
        #expect(user.subject == "user-1")
        #expect(user.givenName == "Ada")
        #expect(user.email == "user@example.com", "the ID token's e-mail is kept where the answer has none")
        #expect(await transport.requests.first?.headerFields["Authorization"] == "Bearer at")
        let mismatch = await #expect(throws: BearerError.self) { try await session.userInfo() }
        #expect(mismatch?.kind == .userMismatch)
        let none = await #expect(throws: BearerError.self) {
            try await AuthorizationServerClient(transport: transport).userInfo(
                for: try AuthState(
                    server: Fixtures.server, client: Fixtures.publicClient, accessToken: "at", scopes: []))
        }
        #expect(none?.kind == .invalidConfiguration)
    }

    @Test("The device flow shows its interval from the start and waits on the session's clock")
    func deviceFlowOnTestClock() async throws {
        let clock = TestClock(Fixtures.epoch)
        let transport = RecordingTransport(replies: [
            .json(
                200,
                #"{"device_code":"dev","user_code":"ABCD","verification_uri":"https://auth.example.com/device","expires_in":1800,"interval":30}"#
            ),
            .json(400, #"{"error":"authorization_pending"}"#),
            .json(400, #"{"error":"authorization_pending"}"#),
            .json(200, #"{"access_token":"at","token_type":"Bearer","expires_in":3600,"refresh_token":"rt"}"#),
        ])
        let shown = Recorder<DeviceSignInProgress>()
        _ = try await AuthSession.signInWithDeviceCode(
            to: Self.openIDServer, as: Fixtures.publicClient, scopes: ["email"], store: InMemorySessionStore(),
            transport: transport, clock: clock.wallClock, progress: shown.record)
        guard case .codeIssued(let code)? = shown.all.first else {
            Issue.record("no code was shown first: \(shown.all)")
            return
        }
        #expect(code.interval == 30)
        #expect(clock.now == Fixtures.epoch.addingTimeInterval(90), "three polls, 30 s apart, on the test clock")
    }

    @Test("A custom agent's test builds the request it is shown")
    func requestForAgentTests() throws {
        let request = try AuthorizationRequest(
            server: Fixtures.server, client: Fixtures.publicClient, scopes: ["openid"])
        #expect(request.url.absoluteString.hasPrefix("https://auth.example.com/authorize?"))
        #expect(request.nonce != nil)
    }

    @Test("Decoding a request runs the initializer's checks")
    func decodingChecks() throws {
        let request = try Fixtures.request()
        let encoded = try JSONEncoder().encode(request)
        #expect(try JSONDecoder().decode(AuthorizationRequest.self, from: encoded) == request)
        let text = String(decoding: encoded, as: UTF8.self)
        let tampered = [
            text.replacingOccurrences(
                of: "https:\\/\\/auth.example.com\\/authorize", with: "http:\\/\\/auth.example.com\\/authorize"),
            text.replacingOccurrences(of: "\"drive.readonly\"", with: "\"drive readonly\""),
            text.replacingOccurrences(of: "\"drive.readonly\"", with: "\"drive\\\"readonly\""),
            text.replacingOccurrences(
                of: "\"additionalParameters\":{}", with: "\"additionalParameters\":{\"client_id\":\"x\"}"),
            text.replacingOccurrences(
                of: "\"additionalParameters\":{}", with: "\"additionalParameters\":{\"redirect_uri\":\"x\"}"),
        ]
        for body in tampered {
            #expect(body != text, "the tampering applies")
            #expect(throws: BearerError.self, "\(body)") {
                try JSONDecoder().decode(AuthorizationRequest.self, from: Data(body.utf8))
            }
        }
    }

    @Test("An insufficient_scope error carries the challenge's description and realm")
    func challengeOnError() async throws {
        let state = try AuthState(
            server: Fixtures.server, client: Fixtures.publicClient, accessToken: "at", expiresIn: 3600,
            scopes: ["email"], clock: .fixed(Fixtures.epoch))
        let transport = RecordingTransport(replies: [
            .json(
                403, "{}",
                headers: [
                    "WWW-Authenticate":
                        #"Bearer realm="files", error="insufficient_scope", error_description="needs drive", scope="drive""#
                ])
        ])
        let session = try await AuthSession.save(
            state, to: InMemorySessionStore(), transport: transport, clock: .fixed(Fixtures.epoch))
        let error = await #expect(throws: OAuthError.self) {
            try await session.data(for: TransportRequest(url: Fixtures.url("https://api.example.com/files")))
        }
        #expect(error?.challenge?.realm == "files")
        #expect(error?.challenge?.errorDescription == "needs drive")
        #expect(error?.requiredScopes == ["drive"])
        #expect(BearerChallenge(header: #"Bearer realm="api", error="invalid_token""#)?.realm == "api")
    }
}
