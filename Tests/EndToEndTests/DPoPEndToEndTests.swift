import Bearer
import Foundation
import Testing

@_spi(Bridge) @_spi(Migration) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// DPoP against a stock glewlwyd with nonces mandatory (its `bearer-dpop` client must send
/// proofs), and each proof checked again by an independent verifier (Server/dpop_resource.py on
/// python3-cryptography). The suite runs its tests one at a time: glewlwyd keeps one nonce per
/// client, which concurrent tests would rotate under each other.
@Suite(
    "End to end: DPoP against glewlwyd with mandatory nonces", .serialized,
    .enabled(if: Glewlwyd.isConfigured, Glewlwyd.skipReason))
struct DPoPEndToEndTests {
    /// DPoP as `use` says, with requests not pushed: glewlwyd wants a proof carrying the client's
    /// nonce at its PAR endpoint for `bearer-dpop`, and gives that nonce only at the token endpoint
    /// (Server/glewlwyd/README.md), so this client cannot push on a first sign-in. Pushed
    /// requests are tested in ``PushedAuthorization``.
    static func configuration(_ use: DPoPSettings.Use = .whenAdvertised) -> AuthSession.Configuration {
        var configuration = AuthSession.Configuration(dpop: DPoPSettings(use: use, keys: PlatformDPoPKeys()))
        configuration.pushedAuthorization = .never
        return configuration
    }

    /// Signs alice in with the loopback agent on `port`, DPoP as the server advertises it.
    func signIn(
        port: UInt16,
        client: String = Glewlwyd.dpopClient,
        store: any SessionStore = InMemorySessionStore(),
        transport: ObservingTransport = ObservingTransport(),
        use: DPoPSettings.Use = .whenAdvertised
    ) async throws -> AuthSession {
        try await AuthSession.signIn(
            to: try await Glewlwyd.discover(), as: try Glewlwyd.client(client, port: port),
            scopes: ["openid", "email"], using: try Glewlwyd.agent(port: port), store: store, key: "dpop",
            transport: transport, configuration: Self.configuration(use))
    }

    @Test("Sign-in, the nonce retry at the token endpoint and at UserInfo, and a refresh, all with the grant's key")
    func signInRefreshAndNonces() async throws {
        let transport = ObservingTransport()
        let store = InMemorySessionStore()
        let session = try await signIn(port: 18171, store: store, transport: transport)
        let state = await session.state
        let key = try #require(state.dpopKey)
        #expect(state.accessTokenType == .dpop)
        let token = try #require(state.accessToken)
        #expect(AuthState.confirmationThumbprint(of: token) == key.thumbprint, "glewlwyd bound the token to the key")
        #expect(try await store.load(key: "dpop")?.dpopKey == key)

        let exchanges = await transport.exchanges(toPathEnding: "/token")
        #expect(exchanges.map(\.status) == [400, 200], "use_dpop_nonce, then the same exchange with the nonce")
        #expect(exchanges.allSatisfy { $0.hadProof })
        #expect(exchanges[0].proofNonce == nil && exchanges[1].proofNonce != nil)

        // A second process knows no nonce yet: its first UserInfo request is refused with one.
        let restored = try #require(
            try await AuthSession.restore(
                key: "dpop", from: store, transport: transport, configuration: Self.configuration()))
        let user = try await restored.userInfo()
        #expect(user.subject == state.user?.subject, "UserInfo answered about the signed-in user")
        let userInfo = await transport.exchanges(toPathEnding: "/userinfo")
        #expect(userInfo.map(\.status) == [401, 200], "use_dpop_nonce at UserInfo, then 200 with the nonce")

        let firstRefreshToken = state.refreshToken
        let refreshed = try await session.refresh()
        #expect(refreshed.accessTokenType == .dpop && refreshed.dpopKey == key)
        #expect(refreshed.refreshToken != firstRefreshToken, "glewlwyd rotates refresh tokens")
        let refreshedToken = try #require(refreshed.accessToken)
        #expect(AuthState.confirmationThumbprint(of: refreshedToken) == key.thumbprint)
        #expect(try await store.load(key: "dpop")?.refreshToken == refreshed.refreshToken)
    }

    @Test("A replayed proof is refused at UserInfo; the session's own requests go on")
    func replayRefused() async throws {
        let session = try await signIn(port: 18172)
        let userInfo = try #require(await session.state.server.userinfoEndpoint)
        var accepted: TransportRequest?
        for _ in 0..<8 {
            // The session's own request keeps its nonce current; the stamped copy is then sent twice.
            // A copy whose 200 rotated glewlwyd's nonce (the answer carries the next one) would be
            // refused again for its nonce, which shows nothing of replays: it is not used.
            _ = try await session.data(for: TransportRequest(url: userInfo))
            let stamped = try await session.authorize(TransportRequest(url: userInfo))
            let answer = try await TestServer.transport.send(stamped)
            if answer.status == 200, answer.headerFields["DPoP-Nonce"] == nil {
                accepted = stamped
                break
            }
        }
        let proved = try #require(accepted, "a freshly stamped request is accepted")
        let replay = try await TestServer.transport.send(proved)
        #expect(replay.status == 401, "glewlwyd refuses a proof whose jti it has seen")
        #expect(!DPoPProver.asksForNonce(replay), "refused as a replay, not for its nonce")
        let again = try await session.data(for: TransportRequest(url: userInfo))
        #expect(again.status == 200)
    }

    @Test("A refresh signed by another key is refused, marks nothing, and the grant refreshes with its own key")
    func otherKeyRefused() async throws {
        let store = InMemorySessionStore()
        let session = try await signIn(port: 18173, store: store)
        var forged = await session.state
        forged.dpopKey = try await PlatformDPoPKeys().makeKey().record
        let forgedStore = InMemorySessionStore()
        try await forgedStore.save(forged, key: "dpop")
        let impostor = try #require(
            try await AuthSession.restore(
                key: "dpop", from: forgedStore, transport: ObservingTransport(), configuration: Self.configuration()))
        let error = await #expect(throws: OAuthError.self) { try await impostor.refresh() }
        #expect(error?.code.rawValue == "invalid_dpop_proof")
        #expect(await impostor.state.signInRequired == false, "a refused proof is not a lost grant")
        let refreshed = try await session.refresh()
        #expect(refreshed.accessToken != forged.accessToken)
        #expect(try await store.load(key: "dpop")?.refreshToken == refreshed.refreshToken)
    }

    @Test("data(for:) proofs pass the independent verifier: signature, htm, htu, ath, jti, iat, jkt, nonce")
    func independentVerifier() async throws {
        let resource = try await DPoPResource()
        let session = try await signIn(port: 18174)
        let key = try #require(await session.state.dpopKey)
        let first = try await session.data(for: TransportRequest(url: try resource.url("/resource/items?page=1")))
        #expect(first.status == 200)
        var post = TransportRequest(method: .post, url: try resource.url("/resource/items"))
        post.body = Data("{}".utf8)
        for _ in 0..<5 {
            #expect(try await session.data(for: post).status == 200)
        }
        let log = try await resource.log()
        #expect(log.first?.status == 401 && log.first?.failed == "nonce", "the resource asked for its nonce once")
        let verified = log.filter { $0.status == 200 }
        #expect(verified.count == 6)
        #expect(verified.allSatisfy { $0.failed == nil && $0.jkt == key.thumbprint && $0.nonceUsed })
        #expect(log.count == 7, "a nonce rotated on a 200 is used without another refusal")
    }

    @Test("A Bearer session stays Bearer: the optional client without DPoP gets Bearer tokens and no proofs")
    func bearerStaysBearer() async throws {
        let transport = ObservingTransport()
        let session = try await signIn(port: 18175, client: Glewlwyd.optionalClient, transport: transport, use: .never)
        // (No proof is sent, so glewlwyd's nonce of this client, which the tool's suite uses, stays.)
        #expect(await session.state.accessTokenType == .bearer)
        #expect(await session.state.dpopKey == nil)
        _ = try await session.refresh()
        #expect(await session.state.accessTokenType == .bearer)
        #expect(await transport.exchanges.allSatisfy { !$0.hadProof })
    }
}
