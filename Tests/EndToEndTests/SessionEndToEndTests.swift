import Bearer
import Foundation
import Testing

@_spi(CommandLine) @_spi(Migration) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// AuthSession against the real server, whose refresh tokens rotate with reuse protection (a
/// replayed refresh token revokes the whole family). "Expired" sessions are made by running the
/// session's clock ahead of the server's, so no test waits for time to pass.
@Suite(
    "End to end: sessions, concurrent refresh, processes, scopes, revocation", .serialized,
    .enabled(if: TestServer.isConfigured, TestServer.skipReason))
struct SessionEndToEndTests {
    private let client = "bearer-trusted"

    private func session(_ state: AuthState, store: any SessionStore = InMemorySessionStore(), offset: TimeInterval)
        async throws -> AuthSession
    {
        try await AuthSession.save(
            state,
            to: store,
            key: "e2e",
            transport: TestServer.transport,
            clock: WallClock { Date().addingTimeInterval(offset) }
        )
    }

    @Test("200 concurrent authorized requests on an expired session: one refresh, all succeed")
    func concurrentRequestsShareOneRefresh() async throws {
        let state = try await TestServer.signIn(client: client)
        let session = try await session(state, offset: 2 * 3600)
        let before = try await TestServer.tokenRequests(client: client, grantType: "refresh_token")
        let request = try TestServer.driveAbout
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<200 {
                group.addTask { try await session.data(for: request).1.statusCode }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == 200)
        #expect(Set(statuses) == [200])
        #expect(try await TestServer.tokenRequests(client: client, grantType: "refresh_token") == before + 1)
        #expect(await session.state.refreshToken != state.refreshToken)
    }

    @Test("Separate processes sharing a FileSessionStore refresh an expired session once, without invalid_grant")
    func processesShareOneRefresh() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileSessionStore(directory: directory)
        let state = try await TestServer.signIn(client: client)
        try await store.save(state, key: "shared")
        let probe = try ProbeProcess.executable()
        let resource = try TestServer.url("/drive/v3/about?fields=user").absoluteString
        var refreshToken = state.refreshToken
        for round in 1...3 {
            let before = try await TestServer.tokenRequests(client: client, grantType: "refresh_token")
            let offset = String(Double(round) * 2 * 3600)
            let processes = try (0..<4).map { _ in
                try ProbeProcess(probe, arguments: [directory.path, "shared", offset, resource])
            }
            let outputs = try await ProbeProcess.outputs(of: processes)
            for output in outputs {
                #expect(output.status == 0 && output.text.hasPrefix("ok"), "round \(round): \(output.text)")
            }
            #expect(try await TestServer.tokenRequests(client: client, grantType: "refresh_token") == before + 1)
            let stored = try #require(try await store.load(key: "shared"))
            #expect(stored.refreshToken != refreshToken, "round \(round) rotated the refresh token once")
            #expect(!stored.signInRequired)
            refreshToken = stored.refreshToken
        }
    }

    @Test("Incremental authorization ends with the union of scopes on one session")
    func incrementalAuthorization() async throws {
        let state = try await TestServer.signIn(client: "bearer-public", scopes: ["openid", "email"])
        let session = try await session(state, offset: 0)
        let refused = await #expect(throws: OAuthError.self) { try await session.data(for: try TestServer.driveAbout) }
        #expect(refused?.code == .insufficientScope)
        #expect(refused?.requiredScopes.isEmpty == false)

        let request = try #require(try await session.authorizationRequest(adding: ["drive.readonly"]))
        #expect(request.additionalParameters["include_granted_scopes"] == "true")
        #expect(request.additionalParameters["login_hint"] == "alice@example.com")
        let redirect = try await Browser.authorize(request.url)
        try await session.completeAddingScopes(
            try AuthorizationResponse(redirect: redirect, for: request), for: request)
        // Earlier grants of this user to this client may add scopes too: that is what
        // include_granted_scopes asks for.
        #expect(Set(await session.state.grantedScopes).isSuperset(of: ["openid", "email", "drive.readonly"]))
        #expect(await session.user?.subject == state.user?.subject)
        let (_, after) = try await session.data(for: try TestServer.driveAbout)
        #expect(after.statusCode == 200)
        #expect(try await session.authorizationRequest(adding: ["drive.readonly", "email"]) == nil)
    }

    @Test("An access token the server no longer accepts makes data(for:) refresh once and succeed")
    func invalidatedAccessTokenRecovers() async throws {
        let state = try await TestServer.signIn(client: client)
        var expire = URLRequest(url: try TestServer.url("/test/expire-access-token"))
        expire.httpMethod = "POST"
        expire.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        expire.httpBody = Data(FormEncoding.encode([("token", try #require(state.accessToken).value)]).utf8)
        let (answer, _) = try await TestServer.transport.send(expire)
        #expect(String(decoding: answer, as: UTF8.self) == #"{"expired": 1}"#)
        let (status, _, header) = try await TestServer.driveAbout(token: state.accessToken)
        #expect(status == 401)
        #expect(header?.contains(#"error="invalid_token""#) == true)

        let session = try await session(state, offset: 0)
        let before = try await TestServer.tokenRequests(client: client, grantType: "refresh_token")
        let (_, response) = try await session.data(for: try TestServer.driveAbout)
        #expect(response.statusCode == 200)
        #expect(try await TestServer.tokenRequests(client: client, grantType: "refresh_token") == before + 1)
    }

    @Test("Revoking an access token at the server (RFC 7009) ends the grant: the session requires a new sign-in")
    func revokedAccessTokenEndsGrant() async throws {
        let state = try await TestServer.signIn(client: client)
        var accessOnly = state
        accessOnly.refreshToken = nil
        try await AuthorizationServerClient(transport: TestServer.transport).revoke(
            #require(RevocationRequest(revoking: accessOnly)))
        let session = try await session(state, offset: 0)
        let error = await #expect(throws: BearerError.self) { try await session.data(for: try TestServer.driveAbout) }
        #expect(error?.kind == .signInRequired)
    }

    @Test("A refresh token revoked at the server makes the session require a new sign-in, saved")
    func revokedRefreshTokenRequiresSignIn() async throws {
        let state = try await TestServer.signIn(client: client)
        try await AuthorizationServerClient(transport: TestServer.transport).revoke(
            #require(RevocationRequest(revoking: state)))
        let store = InMemorySessionStore()
        let session = try await session(state, store: store, offset: 2 * 3600)
        let error = await #expect(throws: BearerError.self) { try await session.validAccessToken() }
        #expect(error?.kind == .signInRequired)
        #expect(try await store.load(key: "e2e")?.signInRequiredError?.code == .invalidGrant)
        #expect(await !session.canAuthorize)
    }

    @Test("Disconnect revokes the grant at the server and removes the stored session")
    func disconnect() async throws {
        let state = try await TestServer.signIn(client: client)
        let store = InMemorySessionStore()
        let session = try await session(state, store: store, offset: 0)
        let outcome = try await session.disconnect()
        guard case .revoked = outcome else {
            Issue.record("expected the server to revoke the grant, got \(outcome)")
            return
        }
        #expect(try await store.load(key: "e2e") == nil)
        let replay = await #expect(throws: OAuthError.self) {
            try await AuthorizationServerClient(transport: TestServer.transport).refresh(state)
        }
        #expect(replay?.code == .invalidGrant)
    }
}
