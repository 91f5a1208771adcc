import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Testing) @_spi(Migration) @_spi(Fleet) @_spi(CommandLine) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The edges of logout: a refresh that was unsaved when the provider ended the session, the
/// replay window under a wide clock skew, the audience, and the logout page's address.
@Suite("Logout edges: unsaved refreshes, replay windows, audiences, and the ID token off the command line")
struct LogoutEdgeTests {
    @Test("A refresh unsaved when the provider ended the session is saved still ended; only a new sign-in lifts it")
    func unsavedRefreshStaysEnded() {
        let base = LogoutFixtures.state(subject: "user-1", sid: "sid-1")
        var refreshed = base
        refreshed.accessToken = AccessToken("at-2")
        refreshed.refreshToken = RefreshToken("rt-2")
        let ended = base.endedAtProvider()
        #expect(ended.isEndedAtProvider && !base.isEndedAtProvider)
        let phase = AuthSession.StateMachine.Phase.unsaved(refreshed, over: base, newGrant: false)
        let (next, action) = phase.reconciling(with: ended)
        guard case .unsaved(let saving, _, false) = next, case .unchanged = action else {
            Issue.record("expected the refresh to be saved, got \(next.name)")
            return
        }
        #expect(saving.refreshToken?.value == "rt-2", "the newest tokens are kept")
        #expect(saving.isEndedAtProvider, "and the session stays ended")
        // Another process refreshed since: its copy is taken as it is.
        var newer = base
        newer.refreshToken = RefreshToken("rt-other")
        let (taken, _) = phase.reconciling(with: newer.endedAtProvider())
        guard case .signInRequired(let adopted) = taken else {
            Issue.record("expected the ended copy to be taken, got \(taken.name)")
            return
        }
        #expect(adopted.refreshToken?.value == "rt-other")
        // A new sign-in is saved over the ended copy, unmarked.
        let (signIn, _) = AuthSession.StateMachine.Phase.unsaved(refreshed, over: base, newGrant: true)
            .reconciling(with: ended)
        guard case .unsaved(let fresh, _, true) = signIn else {
            Issue.record("expected the new sign-in to be saved, got \(signIn.name)")
            return
        }
        #expect(!fresh.isEndedAtProvider)
    }

    @Test("A jti is remembered for as long as the receiver's clock skew lets the token pass")
    func replayWindowFollowsTheSkew() async throws {
        let issuer = try await TestIssuer.make()
        let clock = TestClock(Fixtures.epoch)
        let store = InMemorySessionStore()
        try await store.save(LogoutFixtures.state(subject: "user-1", sid: "sid-1"), key: "first")
        let logout = try BackChannelLogout(
            server: LogoutFixtures.server, clientIDs: [Fixtures.publicClient.id], store: store,
            verifier: PlatformSignatureVerifier(),
            transport: RecordingTransport(replies: [.json(200, issuer.keySet()), .json(200, issuer.keySet())]),
            clock: clock.wallClock.allowingSkew(3600))
        let token = try await issuer.sign(LogoutFixtures.claims(), header: ["alg": "ES256", "kid": "key-1"])
        #expect(try await logout.receive(token) == .ended(sessions: 1))
        clock.advance(by: 1800)
        #expect(try await logout.receive(token) == .replayed, "half an hour later, within the skew, still refused")
    }

    @Test("Only the receiver's own clients are the token's audience; a malformed sid is refused")
    func audienceAndMalformedClaims() async throws {
        let fixtures = try await LogoutFixtures.make()
        let token = try await fixtures.logout.verify(
            try await fixtures.token(["aud": .array(["client-123", "someone-else"])]))
        #expect(token.audience == ["client-123"])
        for malformed: JSONValue in [.number(7), .string(""), .array(["sid-1"])] {
            await #expect(throws: BearerError.self) {
                _ = try await fixtures.logout.verify(try await fixtures.token(["sid": malformed]))
            }
        }
        #expect(try await fixtures.endedKeys().isEmpty)
    }

    @Test("The provider's error wins over a state that came with it")
    func errorWithState() async throws {
        let (session, _, _) = try await ProviderSignOutTests.signedIn()
        let agent = LogoutPageAgent { request in
            Fixtures.url(ProviderSignOutTests.afterLogout.absoluteString + "?state=\(request.state)&error=server_error")
        }
        let outcome = try await session.disconnect(
            endingProviderSessionWith: agent, postLogoutRedirectURI: ProviderSignOutTests.afterLogout)
        guard case .notConfirmed(let error) = outcome.providerSession else {
            Issue.record("expected notConfirmed, got \(outcome.providerSession)")
            return
        }
        #expect((error as? OAuthError)?.code == .serverError)
    }

    @Test("A loopback agent opens a one-time page of its listener, never the logout page with the ID token")
    func loopbackStartPage() async throws {
        let (session, _, _) = try await ProviderSignOutTests.signedIn()
        let opened = Recorder<URL>()
        let transport = URLSessionTransport()
        let agent = try LoopbackAgent(
            timeout: .seconds(60),
            opener: BrowserOpener { url in
                opened.record(url)
                // The browser: the start page sends it on, once, to the provider's page.
                let (_, first) = try await transport.send(URLRequest(url: url))
                let location = try #require(first.value(forHTTPHeaderField: "Location"))
                #expect(first.statusCode == 303)
                #expect(first.value(forHTTPHeaderField: "Cache-Control") == "no-store")
                let (_, again) = try await transport.send(URLRequest(url: url))
                #expect(again.statusCode == 404, "the start page answers once")
                let state = try #require(ProviderSignOutTests.query(URL(string: location))["state"])
                let back = try #require(ProviderSignOutTests.query(URL(string: location))["post_logout_redirect_uri"])
                opened.record(try #require(URL(string: location)))
                _ = try await transport.send(URLRequest(url: try #require(URL(string: back + "?state=" + state))))
            })
        let outcome = try await session.disconnect(endingProviderSessionWith: agent)
        guard case .ended = outcome.providerSession else {
            Issue.record("not ended: \(outcome.providerSession)")
            return
        }
        let urls = opened.all
        #expect(urls.count == 2)
        #expect(urls.first?.host == "127.0.0.1" && urls.first?.path.hasPrefix("/start/") == true)
        #expect(urls.first?.query == nil, "the opened address carries nothing")
        #expect(ProviderSignOutTests.query(urls.last)["id_token_hint"] == (try ProviderSignOutTests.idToken))
    }
}
