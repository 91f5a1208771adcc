import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Bridge) @_spi(CommandLine) @_spi(Migration) @testable import BearerCore

@Suite("AuthSession: refresh, persistence, failures, destinations")
struct AuthSessionTests {
    static let refreshReply = RecordingTransport.Reply.json(
        200,
        #"{"access_token":"at-2","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-2"}"#
    )

    let clock = TestClock(Fixtures.epoch)

    /// A session whose token expires at epoch + `expiresIn`.
    func makeSession(
        expiresIn: TimeInterval = 3600,
        replies: [RecordingTransport.Reply] = [],
        store: (any SessionStore)? = nil,
        configuration: AuthSession.Configuration = AuthSession.Configuration(),
        allowsInsecureLoopback: Bool = false,
        delay: Duration? = nil
    ) async throws -> (AuthSession, RecordingTransport, any SessionStore) {
        var server = Fixtures.server
        server.allowsInsecureLoopback = allowsInsecureLoopback
        let state = AuthState(
            server: server,
            client: Fixtures.publicClient,
            accessToken: AccessToken("at-1"),
            accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(expiresIn),
            accessTokenLifetime: expiresIn,
            refreshToken: RefreshToken("rt-1"),
            grantedScopes: ["email", "drive.readonly"],
            user: AuthState.User(subject: "user-1", email: "user@example.com")
        )
        let store = store ?? InMemorySessionStore()
        try await store.save(state, key: "main")
        let transport = RecordingTransport(replies: replies, responseDelay: delay)
        let session = try #require(
            try await AuthSession.restore(
                key: "main",
                from: store,
                transport: transport,
                clock: clock.wallClock,
                configuration: configuration
            )
        )
        return (session, transport, store)
    }

    func apiRequest(_ url: String = "https://api.example.com/v1/items") -> URLRequest {
        URLRequest(url: Fixtures.url(url))
    }

    @Test("A fresh token is stamped without any request")
    func freshTokenStamped() async throws {
        let (session, transport, _) = try await makeSession()
        let request = try await session.authorize(apiRequest())
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer at-1")
        #expect(await transport.requests.isEmpty)
        #expect(await session.canAuthorize)
        #expect(await session.user?.email == "user@example.com")
    }

    @Test("1000 concurrent authorize calls on an expired session send exactly one token request")
    func concurrentCallsShareOneRefresh() async throws {
        let (session, transport, store) = try await makeSession(replies: [Self.refreshReply], delay: .milliseconds(50))
        clock.advance(by: 3600)
        let headers = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<1000 {
                group.addTask {
                    try await session.authorize(apiRequest()).value(forHTTPHeaderField: "Authorization")
                }
            }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(headers.count == 1000)
        #expect(Set(headers) == ["Bearer at-2"])
        #expect(await transport.requests.count == 1)
        #expect(try await store.load(key: "main")?.refreshToken?.value == "rt-2")
    }

    @Test("The refreshed session is saved before the new token is handed out")
    func persistsBeforeUse() async throws {
        let (session, _, store) = try await makeSession(replies: [Self.refreshReply])
        clock.advance(by: 3600)
        let stream = await session.stateChanges()
        let token = try await session.validAccessToken()
        #expect(token.value == "at-2")
        let saved = try await store.load(key: "main")
        #expect(saved?.accessToken?.value == "at-2")
        #expect(saved?.refreshToken?.value == "rt-2")
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next()?.accessToken?.value == "at-2")
    }

    @Test("A failing save reaches the caller; the new tokens stay in memory and are saved before they are used")
    func failingSaveSurfaces() async throws {
        let store = FaultyStore()
        let (session, transport, _) = try await makeSession(replies: [Self.refreshReply], store: store)
        await store.setFailsSaves(true)
        clock.advance(by: 3600)
        let error = await #expect(throws: BearerError.self) { try await session.validAccessToken() }
        #expect(error?.kind == .storageFailure)
        #expect(await session.state.refreshToken?.value == "rt-2")
        #expect(try await store.load(key: "main")?.refreshToken?.value == "rt-1")
        // While the store still fails, the unsaved token is not handed out.
        await #expect(throws: BearerError.self) { try await session.validAccessToken() }
        await store.setFailsSaves(false)
        #expect(try await session.validAccessToken().value == "at-2")
        #expect(try await store.load(key: "main")?.refreshToken?.value == "rt-2", "saved before use")
        #expect(await transport.requests.count == 1, "no second refresh")
        await transport.enqueue(.json(200, #"{"access_token":"at-3","token_type":"Bearer","expires_in":3600}"#))
        clock.advance(by: 3600)
        #expect(try await session.validAccessToken().value == "at-3")
        #expect(await transport.requests.map(\.formBody).last?["refresh_token"] == "rt-2")
    }

    @Test("A session whose saved copy was removed elsewhere (sign-out) does not bring it back")
    func signedOutElsewhere() async throws {
        let (_, transport, store) = try await makeSession(replies: [Self.refreshReply])
        let session = try #require(
            try await AuthSession.restore(key: "main", from: store, transport: transport, clock: clock.wallClock))
        try await store.remove(key: "main")
        clock.advance(by: 3600)
        let error = await #expect(throws: BearerError.self) { try await session.validAccessToken() }
        #expect(error?.kind == .signInRequired)
        #expect(try await store.load(key: "main") == nil)
        #expect(await transport.requests.isEmpty)
    }

    @Test("A session marked sign-in required picks up a new sign-in saved by another process")
    func picksUpNewSignIn() async throws {
        let (session, transport, store) = try await makeSession(replies: [.json(400, #"{"error":"invalid_grant"}"#)])
        clock.advance(by: 3600)
        await #expect(throws: BearerError.self) { try await session.validAccessToken() }
        var fresh = try #require(try await store.load(key: "main"))
        fresh.signInRequiredError = nil
        fresh.accessToken = AccessToken("at-elsewhere")
        fresh.accessTokenExpiresAt = clock.now.addingTimeInterval(3600)
        try await store.save(fresh, key: "main")
        #expect(try await session.validAccessToken().value == "at-elsewhere")
        #expect(await transport.requests.count == 1)
    }

    @Test("Another account saved under the key is not overwritten by this session's refresh")
    func otherAccountNotOverwritten() async throws {
        let (session, transport, store) = try await makeSession(replies: [Self.refreshReply])
        var other = try #require(try await store.load(key: "main"))
        other.user = AuthState.User(subject: "someone-else")
        other.accessTokenExpiresAt = .distantPast
        try await store.save(other, key: "main")
        clock.advance(by: 3600)
        let error = await #expect(throws: BearerError.self) { try await session.validAccessToken() }
        #expect(error?.kind == .userMismatch)
        #expect(try await store.load(key: "main") == other)
        #expect(await transport.requests.isEmpty)
    }

    @Test("invalid_grant marks the session, saves the mark, and later calls fail without a request")
    func invalidGrantMarksSession() async throws {
        let (session, transport, store) = try await makeSession(replies: [.json(400, #"{"error":"invalid_grant"}"#)])
        clock.advance(by: 3600)
        let first = await #expect(throws: BearerError.self) { try await session.authorize(apiRequest()) }
        #expect(first?.kind == .signInRequired)
        #expect(try await store.load(key: "main")?.signInRequiredError?.code == .invalidGrant)
        #expect(await !session.canAuthorize)
        let second = await #expect(throws: BearerError.self) { try await session.authorize(apiRequest()) }
        #expect(second?.kind == .signInRequired)
        #expect(await transport.requests.count == 1)

        let restored = try #require(try await AuthSession.restore(key: "main", from: store, transport: transport))
        await #expect(throws: BearerError.self) { try await restored.authorize(apiRequest()) }
        #expect(await transport.requests.count == 1)
    }

    @Test("A network error leaves the session unchanged and the next call tries again")
    func networkErrorIsTransient() async throws {
        let (session, transport, store) = try await makeSession(replies: [.failure(.timedOut), Self.refreshReply])
        clock.advance(by: 3600)
        let error = await #expect(throws: BearerError.self) { try await session.authorize(apiRequest()) }
        #expect(error?.kind == .network)
        #expect(error?.isTransient == true)
        #expect(await session.state.accessToken?.value == "at-1")
        #expect(try await store.load(key: "main")?.refreshToken?.value == "rt-1")
        let request = try await session.authorize(apiRequest())
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer at-2")
        #expect(await transport.requests.count == 2)
    }

    @Test("A 503 with Retry-After is not retried before the time it names")
    func retryAfterHonoured() async throws {
        let (session, transport, store) = try await makeSession(replies: [
            .text(503, contentType: "text/html", "<h1>busy</h1>").withHeader("Retry-After", "120"),
            Self.refreshReply,
        ])
        clock.advance(by: 3600)
        let error = await #expect(throws: BearerError.self) { try await session.authorize(apiRequest()) }
        #expect(error?.kind == .serverUnavailable)
        #expect(error?.retryAfter == 120)
        clock.advance(by: 60)
        await #expect(throws: BearerError.self) { try await session.authorize(apiRequest()) }
        #expect(await transport.requests.count == 1, "no request before Retry-After has passed")
        #expect(try await store.load(key: "main")?.accessToken?.value == "at-1")
        clock.advance(by: 61)
        #expect(try await session.validAccessToken().value == "at-2")
        #expect(await transport.requests.count == 2)
    }

    @Test("A server error in OAuth form is transient too, and no stale token is stamped")
    func oauthServerError() async throws {
        let (session, _, _) = try await makeSession(replies: [.json(500, #"{"error":"server_error"}"#)])
        clock.advance(by: 3599)
        let error = await #expect(throws: OAuthError.self) { try await session.authorize(apiRequest()) }
        #expect(error?.isTransient == true)
        #expect(await session.state.signInRequiredError == nil)
    }

    @Test("Refresh starts at the leeway: fresh at T−60.001 s, refreshed at T−60 s")
    func leewayBoundary() async throws {
        let (session, transport, _) = try await makeSession(replies: [Self.refreshReply])
        clock.advance(by: 3600 - 60.001)
        _ = try await session.authorize(apiRequest())
        #expect(await transport.requests.isEmpty)
        clock.advance(by: 0.001)
        _ = try await session.authorize(apiRequest())
        #expect(await transport.requests.count == 1)
    }

    @Test("A 30-second token is refreshed from 15 s before expiry, not at once")
    func shortLivedToken() async throws {
        let (session, transport, _) = try await makeSession(expiresIn: 30, replies: [Self.refreshReply])
        _ = try await session.authorize(apiRequest())
        clock.advance(by: 14.9)
        _ = try await session.authorize(apiRequest())
        #expect(await transport.requests.isEmpty)
        clock.advance(by: 0.1)
        _ = try await session.authorize(apiRequest())
        #expect(await transport.requests.count == 1)
    }

    @Test("Tokens never go over http, except to loopback when the server allows it")
    func insecureURLsRefused() async throws {
        let (session, transport, _) = try await makeSession()
        for url in ["http://api.example.com/x", "ftp://api.example.com/x", "http://127.0.0.1:8080/x"] {
            let error = await #expect(throws: BearerError.self) { try await session.authorize(apiRequest(url)) }
            #expect(error?.kind == .insecureEndpoint, "\(url)")
        }
        let (loopback, _, _) = try await makeSession(allowsInsecureLoopback: true)
        let request = try await loopback.authorize(apiRequest("http://127.0.0.1:8080/x"))
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer at-1")
        await #expect(throws: BearerError.self) { try await loopback.authorize(apiRequest("http://example.com/x")) }
        #expect(await transport.requests.isEmpty)
    }

    @Test("The host allow-list keeps tokens to the listed hosts")
    func hostAllowList() async throws {
        let (session, _, _) = try await makeSession(configuration: .google)
        _ = try await session.authorize(apiRequest("https://www.googleapis.com/drive/v3/about"))
        _ = try await session.authorize(apiRequest("https://drive.GOOGLEAPIS.com/x"))
        for url in [
            "https://googleapis.com/x", "https://evil.com/x", "https://googleapis.com.evil.com/x",
            "https://evilgoogleapis.com/x",
        ] {
            let error = await #expect(throws: BearerError.self) { try await session.authorize(apiRequest(url)) }
            #expect(error?.kind == .hostNotAllowed, "\(url)")
        }
    }

    @Test("Hooks add refresh parameters and rewrite errors")
    func hooks() async throws {
        struct AppError: Error {}
        let configuration = AuthSession.Configuration(
            allowedHosts: ["*.googleapis.com"],
            additionalRefreshParameters: { state in ["device_id": "d-\(state.client.id)"] },
            rewriteError: { error in (error as? BearerError)?.kind == .hostNotAllowed ? AppError() : error }
        )
        let (session, transport, _) = try await makeSession(replies: [Self.refreshReply], configuration: configuration)
        clock.advance(by: 3600)
        _ = try await session.refresh()
        #expect(await transport.requests.first?.formBody["device_id"] == "d-client-123")
        await #expect(throws: AppError.self) { try await session.authorize(apiRequest("https://evil.com/")) }
    }

    @Test("Two sessions sharing a store refresh once: the second adopts the stored result")
    func sessionsSharingAStore() async throws {
        let (first, transport, store) = try await makeSession(replies: [Self.refreshReply])
        let second = try #require(
            try await AuthSession.restore(key: "main", from: store, transport: transport, clock: clock.wallClock)
        )
        clock.advance(by: 3600)
        async let a = first.validAccessToken()
        async let b = second.validAccessToken()
        let tokens = try await [a, b]
        #expect(tokens.map(\.value) == ["at-2", "at-2"])
        #expect(await transport.requests.count == 1)
    }
}
