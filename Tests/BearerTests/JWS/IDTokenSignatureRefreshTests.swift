import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Migration) @_spi(Testing) @testable import BearerCore

/// Refreshes whose answers carry an ID token: its signature is checked before the answer is used.
@Suite("ID-token signatures on refresh: a refused one keeps the session, unreachable keys keep the grant")
struct IDTokenSignatureRefreshTests {
    let clock = TestClock(Fixtures.epoch)

    /// A saved session at a server publishing keys, whose access token is stale.
    func makeSession(replies: [RecordingTransport.Reply]) async throws -> (
        AuthSession, RecordingTransport, InMemorySessionStore
    ) {
        let state = AuthState(
            server: IDTokenSignatureTests.server, client: Fixtures.publicClient, accessToken: AccessToken("at-0"),
            accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(-10), refreshToken: RefreshToken("rt-0"),
            grantedScopes: ["openid", "email"], user: AuthState.User(subject: "user-1"))
        let store = InMemorySessionStore()
        let transport = RecordingTransport(replies: replies)
        let session = try await AuthSession.save(
            state, to: store, key: "k", transport: transport, clock: clock.wallClock,
            configuration: IDTokenSignatureTests.configuration)
        return (session, transport, store)
    }

    func refreshedIDToken(by issuer: TestIssuer) async throws -> String {
        let request = try Fixtures.request(server: IDTokenSignatureTests.server)
        return try await issuer.idToken(for: request, changing: ["nonce": nil])
    }

    @Test("A refreshed ID token signed by the server's key is kept")
    func validRefresh() async throws {
        let issuer = try await TestIssuer.make()
        let (session, transport, _) = try await makeSession(replies: [
            IDTokenSignatureTests.tokens(try await refreshedIDToken(by: issuer), refreshToken: "rt-1"),
            .json(200, issuer.keySet()),
        ])
        _ = try await session.authorize(TransportRequest(url: Fixtures.url("https://api.example.com/")))
        #expect(await session.state.idToken != nil)
        #expect(await session.state.refreshToken?.value == "rt-1")
        #expect(await transport.requests.map(\.url.path) == ["/token", "/jwks"])
    }

    @Test(
        "A refreshed ID token with a bad signature fails the call; the new refresh token is revoked; the stored session is kept unmarked"
    )
    func refusedRefresh() async throws {
        let issuer = try await TestIssuer.make()
        let forger = try await TestIssuer.make(keyID: issuer.keyID)
        let (session, transport, store) = try await makeSession(replies: [
            IDTokenSignatureTests.tokens(try await refreshedIDToken(by: forger), refreshToken: "rt-1"),
            .json(200, issuer.keySet()), .json(200, "{}"), .json(200, "{}"),
        ])
        await #expect(throws: BearerError.invalidSignature("")) {
            _ = try await session.authorize(TransportRequest(url: Fixtures.url("https://api.example.com/")))
        }
        let revoked = await transport.requests.filter { $0.url.path == "/revoke" }.map { $0.formBody["token"] }
        #expect(Set(revoked) == ["at-1", "rt-1"])
        let stored = try #require(try await store.load(key: "k"))
        #expect(stored.refreshToken?.value == "rt-0")
        #expect(stored.signInRequiredError == nil)
    }

    @Test("A refreshed answer whose refresh token is the old one revokes only the new access token")
    func unrotatedRefreshKeepsRefreshToken() async throws {
        let issuer = try await TestIssuer.make()
        let forger = try await TestIssuer.make(keyID: issuer.keyID)
        let (session, transport, _) = try await makeSession(replies: [
            IDTokenSignatureTests.tokens(try await refreshedIDToken(by: forger), refreshToken: "rt-0"),
            .json(200, issuer.keySet()), .json(200, "{}"),
        ])
        await #expect(throws: BearerError.invalidSignature("")) {
            _ = try await session.authorize(TransportRequest(url: Fixtures.url("https://api.example.com/")))
        }
        let revoked = await transport.requests.filter { $0.url.path == "/revoke" }.map { $0.formBody["token"] }
        #expect(revoked == ["at-1"])
    }

    @Test(
        "When the key set cannot be fetched, the refreshed grant is saved and only its ID token dropped, with the reason"
    )
    func unreachableKeysKeepGrant() async throws {
        let issuer = try await TestIssuer.make()
        let (session, _, store) = try await makeSession(replies: [
            IDTokenSignatureTests.tokens(try await refreshedIDToken(by: issuer), refreshToken: "rt-1"),
            .failure(.timedOut),
        ])
        _ = try await session.authorize(TransportRequest(url: Fixtures.url("https://api.example.com/")))
        let stored = try #require(try await store.load(key: "k"))
        #expect(stored.refreshToken?.value == "rt-1")
        #expect(stored.idToken == nil)
        #expect(stored.idTokenRejection?.kind == .invalidIDToken)
    }
}

@Suite("ServerKeyCache: key sets kept per server, fetched again at most once a minute for unknown keys")
struct ServerKeyCacheTests {
    actor Fetches {
        var count = 0
        func fetched() { count += 1 }
    }

    static let url = Fixtures.url("https://auth.example.com/jwks")
    static let set = JSONWebKeySet(keys: [])

    func fetcher(_ fetches: Fetches, maximumAge: TimeInterval?, failing: Bool = false)
        -> @Sendable () async throws -> ServerKeyCache.Fetched
    {
        {
            await fetches.fetched()
            if failing { throw BearerError.network("down") }
            return ServerKeyCache.Fetched(keys: Self.set, maximumAge: maximumAge)
        }
    }

    @Test("A set is kept for its max-age, then fetched again")
    func keptForMaxAge() async throws {
        let cache = ServerKeyCache()
        let fetches = Fetches()
        let start = Fixtures.epoch
        for offset in [0.0, 100, 599] {
            _ = try await cache.keys(
                at: Self.url, now: start + offset, refetchingForUnknownKey: false,
                fetch: fetcher(fetches, maximumAge: 600))
        }
        #expect(await fetches.count == 1)
        _ = try await cache.keys(
            at: Self.url, now: start + 600, refetchingForUnknownKey: false, fetch: fetcher(fetches, maximumAge: 600))
        #expect(await fetches.count == 2)
    }

    @Test("Unknown keys fetch the set again no more than once a minute, however many tokens ask")
    func refetchRateLimited() async throws {
        let cache = ServerKeyCache()
        let fetches = Fetches()
        _ = try await cache.keys(
            at: Self.url, now: Fixtures.epoch, refetchingForUnknownKey: false, fetch: fetcher(fetches, maximumAge: 3600)
        )
        for second in 0..<59 {
            _ = try await cache.keys(
                at: Self.url, now: Fixtures.epoch + Double(second), refetchingForUnknownKey: true,
                fetch: fetcher(fetches, maximumAge: 3600))
        }
        #expect(await fetches.count == 1)
        _ = try await cache.keys(
            at: Self.url, now: Fixtures.epoch + 60, refetchingForUnknownKey: true,
            fetch: fetcher(fetches, maximumAge: 3600))
        #expect(await fetches.count == 2)
    }

    @Test("A kept set is used past its freshness when the server cannot be reached, and asked again a minute later")
    func staleOnFailure() async throws {
        let cache = ServerKeyCache()
        let fetches = Fetches()
        _ = try await cache.keys(
            at: Self.url, now: Fixtures.epoch, refetchingForUnknownKey: false, fetch: fetcher(fetches, maximumAge: 0))
        let stale = try await cache.keys(
            at: Self.url, now: Fixtures.epoch + 1, refetchingForUnknownKey: false,
            fetch: fetcher(fetches, maximumAge: 0, failing: true))
        #expect(stale == Self.set)
        _ = try await cache.keys(
            at: Self.url, now: Fixtures.epoch + 30, refetchingForUnknownKey: false,
            fetch: fetcher(fetches, maximumAge: 0, failing: true))
        #expect(await fetches.count == 2)
        _ = try await cache.keys(
            at: Self.url, now: Fixtures.epoch + 61, refetchingForUnknownKey: false,
            fetch: fetcher(fetches, maximumAge: 0, failing: true))
        #expect(await fetches.count == 3)
        await #expect(throws: BearerError.network("")) {
            _ = try await ServerKeyCache().keys(
                at: Self.url, now: Fixtures.epoch, refetchingForUnknownKey: false,
                fetch: self.fetcher(fetches, maximumAge: nil, failing: true))
        }
    }

    @Test("Cache-Control: max-age is read, no-store and no-cache keep nothing, others say nothing")
    func cacheControl() {
        #expect(ServerKeyCache.maximumAge(cacheControl: "public, max-age=19863, must-revalidate") == 19863)
        #expect(ServerKeyCache.maximumAge(cacheControl: "max-age=\"60\"") == 60)
        #expect(ServerKeyCache.maximumAge(cacheControl: "no-store") == 0)
        #expect(ServerKeyCache.maximumAge(cacheControl: "max-age=60, no-cache") == 0)
        #expect(ServerKeyCache.maximumAge(cacheControl: "max-age=-5") == nil)
        #expect(ServerKeyCache.maximumAge(cacheControl: "private") == nil)
        #expect(ServerKeyCache.maximumAge(cacheControl: nil) == nil)
    }
}
