import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Bridge) @_spi(CommandLine) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("AuthSession: data(for:), scopes, sign-out")
struct AuthSessionRequestTests {
    let base = AuthSessionTests()

    private static let invalidToken = RecordingTransport.Reply.response(
        status: 401,
        headers: ["WWW-Authenticate": #"Bearer realm="api", error="invalid_token", error_description="revoked""#],
        body: Data()
    )

    @Test("data(for:) stamps the request and returns the answer")
    func sendsAuthorizedRequest() async throws {
        let (session, transport, _) = try await base.makeSession(replies: [.json(200, #"{"ok":true}"#)])
        let (data, response) = try await session.data(for: base.apiRequest())
        #expect(response.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == #"{"ok":true}"#)
        #expect(await transport.requests.first?.headerFields["Authorization"] == "Bearer at-1")
    }

    @Test("A 401 invalid_token refreshes once and retries once")
    func retriesOnceAfterInvalidToken() async throws {
        let (session, transport, _) = try await base.makeSession(replies: [
            Self.invalidToken, AuthSessionTests.refreshReply, .json(200, "{}"),
        ])
        let (_, response) = try await session.data(for: base.apiRequest())
        #expect(response.statusCode == 200)
        let sent = await transport.requests
        #expect(sent.count == 3)
        #expect(sent.last?.headerFields["Authorization"] == "Bearer at-2")
    }

    @Test("A second 401 is returned, not retried in a loop")
    func noRetryLoop() async throws {
        let (session, transport, _) = try await base.makeSession(replies: [
            Self.invalidToken, AuthSessionTests.refreshReply, Self.invalidToken,
        ])
        let (_, response) = try await session.data(for: base.apiRequest())
        #expect(response.statusCode == 401)
        #expect(await transport.requests.count == 3)
    }

    @Test("A 401 without invalid_token is returned without a refresh")
    func plain401() async throws {
        let (session, transport, _) = try await base.makeSession(replies: [
            .response(status: 401, headers: ["WWW-Authenticate": #"Bearer realm="api""#], body: Data())
        ])
        let (_, response) = try await session.data(for: base.apiRequest())
        #expect(response.statusCode == 401)
        #expect(await transport.requests.count == 1)
    }

    @Test("A 403 insufficient_scope names the scope the server asked for")
    func insufficientScope() async throws {
        let (session, _, _) = try await base.makeSession(replies: [
            .response(
                status: 403,
                headers: [
                    "WWW-Authenticate":
                        #"Bearer realm="api", error="insufficient_scope", scope="https://www.googleapis.com/auth/drive.file""#
                ],
                body: Data()
            )
        ])
        let error = await #expect(throws: OAuthError.self) { try await session.data(for: base.apiRequest()) }
        #expect(error?.code == .insufficientScope)
        #expect(error?.requiredScopes == ["https://www.googleapis.com/auth/drive.file"])
        #expect(error?.statusCode == 403)
    }

    @Test("Granted scopes treat Google's aliases as equal; asking for them again is a no-op")
    func scopeAliases() async throws {
        let (session, _, _) = try await base.makeSession()
        #expect(await session.hasGranted("https://www.googleapis.com/auth/userinfo.email"))
        #expect(await session.hasGranted("email"))
        #expect(await !session.hasGranted("profile"))
        #expect(
            try await session.authorizationRequest(adding: [
                "https://www.googleapis.com/auth/userinfo.email", "drive.readonly",
            ]) == nil)
    }

    @Test("addScopes asks for the sorted union with include_granted_scopes and login_hint")
    func addScopesRequest() async throws {
        let (session, _, _) = try await base.makeSession()
        let request = try #require(try await session.authorizationRequest(adding: ["drive.file", "email"]))
        #expect(request.scopes == ["drive.file", "drive.readonly", "email"])
        #expect(request.additionalParameters["include_granted_scopes"] == "true")
        #expect(request.additionalParameters["login_hint"] == "user@example.com")
    }

    @Test("Completing addScopes merges the grant into the same session and saves it")
    func completeAddScopes() async throws {
        let (session, transport, store) = try await base.makeSession()
        let request = try #require(try await session.authorizationRequest(adding: ["openid", "drive.file"]))
        let idToken = Fixtures.idToken(for: request, subject: "user-1", issuedAt: Fixtures.epoch)
        await transport.enqueue(
            .json(
                200,
                #"{"access_token":"at-up","token_type":"Bearer","expires_in":3600,"scope":"drive.file drive.readonly email openid","id_token":"\#(idToken)"}"#
            )
        )
        let redirect = Fixtures.redirect(for: request, query: "state=\(request.state)&code=up")
        let merged = try await session.completeAddingScopes(
            try AuthorizationResponse(redirect: redirect, for: request), for: request)
        #expect(Set(merged.grantedScopes) == ["drive.file", "drive.readonly", "email", "openid"])
        #expect(merged.refreshToken?.value == "rt-1", "the old refresh token is kept when none is issued")
        #expect(try await store.load(key: "main") == merged)
        #expect(await session.hasGranted("drive.file"))
    }

    @Test("A grant from another account is refused and leaves the session untouched")
    func addScopesOtherUser() async throws {
        let (session, transport, store) = try await base.makeSession()
        let before = await session.state
        let request = try #require(try await session.authorizationRequest(adding: ["openid", "drive.file"]))
        let idToken = Fixtures.idToken(for: request, subject: "someone-else", issuedAt: Fixtures.epoch)
        await transport.enqueue(
            .json(200, #"{"access_token":"x","token_type":"Bearer","refresh_token":"y","id_token":"\#(idToken)"}"#)
        )
        let redirect = Fixtures.redirect(for: request, query: "state=\(request.state)&code=up")
        let error = await #expect(throws: BearerError.self) {
            try await session.completeAddingScopes(
                try AuthorizationResponse(redirect: redirect, for: request), for: request)
        }
        #expect(error?.kind == .userMismatch)
        #expect(await session.state == before)
        #expect(try await store.load(key: "main") == before)
    }

    @Test("Sign-out is local: it removes the stored session and sends nothing to the server")
    func signOutIsLocal() async throws {
        let (session, transport, store) = try await base.makeSession(replies: [])
        try await session.signOut()
        #expect(await transport.requests.isEmpty)
        #expect(try await store.load(key: "main") == nil)
        #expect(await !session.canAuthorize)
        await #expect(throws: BearerError.self) { try await session.authorize(base.apiRequest()) }
    }

    @Test("Disconnect revokes the refresh token, then the access token, and removes the stored session")
    func disconnectRevokes() async throws {
        let (session, transport, store) = try await base.makeSession(replies: [
            .text(200, contentType: "text/plain", ""), .text(200, contentType: "text/plain", ""),
        ])
        let outcome = try await session.disconnect()
        guard case .revoked = outcome else {
            Issue.record("expected revocation, got \(outcome)")
            return
        }
        let sent = await transport.requests
        #expect(sent.map(\.url.absoluteString) == Array(repeating: "https://auth.example.com/revoke", count: 2))
        #expect(
            sent.first?.formBody == ["token": "rt-1", "token_type_hint": "refresh_token", "client_id": "client-123"])
        #expect(sent.last?.formBody["token_type_hint"] == "access_token")
        #expect(try await store.load(key: "main") == nil)
        #expect(await !session.canAuthorize)
        await #expect(throws: BearerError.self) { try await session.authorize(base.apiRequest()) }
    }

    @Test("Disconnect removes the stored session even when revocation fails, and reports the failure")
    func disconnectWhenRevocationFails() async throws {
        let (session, _, store) = try await base.makeSession(replies: [.failure(.notConnectedToInternet)])
        let outcome = try await session.disconnect()
        guard case .failed(let error) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect((error as? BearerError)?.kind == .network)
        #expect(try await store.load(key: "main") == nil)
    }

    @Test("A new sign-in replaces a session marked sign-in required")
    func replaceClearsMark() async throws {
        let (session, transport, store) = try await base.makeSession(replies: [
            .json(400, #"{"error":"invalid_grant"}"#)
        ])
        base.clock.advance(by: 3600)
        await #expect(throws: BearerError.self) { try await session.validAccessToken() }
        var fresh = await session.state
        fresh.signInRequiredError = nil
        fresh.accessToken = AccessToken("at-new")
        fresh.accessTokenExpiresAt = base.clock.now.addingTimeInterval(3600)
        try await session.replace(with: fresh)
        #expect(try await session.validAccessToken().value == "at-new")
        #expect(try await store.load(key: "main")?.signInRequiredError == nil)
        #expect(await transport.requests.count == 1)
    }
}

@Suite("WWW-Authenticate and Retry-After")
struct ChallengeParsingTests {
    @Test("Bearer parameters are read, quoted or not, among other challenges")
    func parsesBearer() throws {
        let challenge = try #require(
            BearerChallenge(
                header:
                    #"Basic realm="x", Bearer realm="api", error=invalid_token, error_description="a \"quoted\" text", scope="a b""#
            )
        )
        #expect(challenge.realm == "api")
        #expect(challenge.error == "invalid_token")
        #expect(challenge.errorDescription == #"a "quoted" text"#)
        #expect(challenge.scopes == ["a", "b"])
        #expect(BearerChallenge(header: #"Basic realm="x""#) == nil)
        #expect(BearerChallenge(header: "bearer")?.parameters == [:])
        for junk in ["", "=", "\"", "Bearer =\"", "Bearer error=\"unterminated", ",,,", "Bearer a=b=c"] {
            _ = BearerChallenge(header: junk)
        }
    }

    @Test("Retry-After is read as seconds or an HTTP date")
    func retryAfter() throws {
        let now = Date(timeIntervalSince1970: 1_445_412_480)
        #expect(RetryAfter.delay(from: "120", now: now) == 120)
        #expect(RetryAfter.delay(from: " 5 ", now: now) == 5)
        #expect(RetryAfter.delay(from: "Wed, 21 Oct 2015 07:28:30 GMT", now: now) == 30)
        #expect(RetryAfter.delay(from: "Wed, 21 Oct 2015 07:00:00 GMT", now: now) == 0)
        #expect(RetryAfter.delay(from: "soon", now: now) == nil)
        #expect(RetryAfter.delay(from: "-1", now: now) == nil)
    }
}
