import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Benchmarks) @_spi(Migration) @_spi(Testing) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sessions bound to DPoP keys, against the fake transport: where proofs go, how nonces are kept
/// and retried, which token types are accepted, and that a missing key never loses the session.
@Suite("DPoP: sessions")
struct DPoPSessionTests {
    static let dpopServer: AuthorizationServer = {
        var server = Fixtures.server
        server.dpopSigningAlgorithms = ["RS256", "ES256"]
        return server
    }()

    static func configuration(_ use: DPoPSettings.Use = .whenAdvertised) -> AuthSession.Configuration {
        AuthSession.Configuration(dpop: DPoPSettings(use: use, keys: PlatformDPoPKeys()))
    }

    static let dpopTokens = RecordingTransport.Reply.json(
        200, #"{"access_token":"at-1","token_type":"DPoP","expires_in":3600,"refresh_token":"rt-1"}"#)

    static func useNonce(_ nonce: String) -> RecordingTransport.Reply {
        RecordingTransport.Reply.json(400, #"{"error":"use_dpop_nonce"}"#).withHeader("DPoP-Nonce", nonce)
    }

    /// The claims of the proof `request` carries.
    static func proofClaims(_ request: TransportRequest) throws -> [String: JSONValue] {
        let proof = try #require(request.headerFields["DPoP"], "the request carries a proof")
        let parts = proof.split(separator: ".")
        return try JSONDecoder().decode([String: JSONValue].self, from: try #require(Base64URL.decode(parts[1])))
    }

    func signIn(
        _ replies: [RecordingTransport.Reply],
        server: AuthorizationServer = Self.dpopServer,
        use: DPoPSettings.Use = .whenAdvertised,
        store: InMemorySessionStore = InMemorySessionStore()
    ) async throws -> (AuthSession, RecordingTransport, ScriptedAgent) {
        let transport = RecordingTransport(replies: replies)
        let agent = ScriptedAgent.approving()
        let session = try await AuthSession.signIn(
            to: server, as: Fixtures.publicClient, scopes: ["email"], using: agent, store: store, key: "main",
            transport: transport, clock: .fixed(Fixtures.epoch), configuration: Self.configuration(use))
        return (session, transport, agent)
    }

    @Test("A sign-in at a server that lists ES256 binds the grant: dpop_jkt, proofs, the nonce retry, the key saved")
    func signInBindsGrant() async throws {
        let store = InMemorySessionStore()
        let (session, transport, agent) = try await signIn([Self.useNonce("n-1"), Self.dpopTokens], store: store)
        let state = await session.state
        let key = try #require(state.dpopKey)
        #expect(state.accessTokenType == .dpop)
        #expect(agent.presented.first?.additionalParameters["dpop_jkt"] == key.thumbprint)
        let requests = await transport.requests
        #expect(requests.count == 2, "one exchange, sent once more with the server's nonce")
        let first = try Self.proofClaims(requests[0])
        let second = try Self.proofClaims(requests[1])
        #expect(first["nonce"] == nil && second["nonce"] == .string("n-1"))
        #expect(first["jti"] != second["jti"], "a new proof, not the refused one again")
        #expect(
            second["htm"] == .string("POST") && second["htu"] == .string(Fixtures.server.tokenEndpoint.absoluteString))
        #expect(second["ath"] == nil, "token requests carry no ath")
        #expect(requests[1].formBody["code"] == "the-code")
        #expect(try await store.load(key: "main")?.dpopKey == key, "the key is saved in the grant's record")
    }

    @Test(
        "Requests carry Authorization: DPoP, a proof with ath, and the resource's nonce, retried once on use_dpop_nonce"
    )
    func resourceRequests() async throws {
        let (session, transport, _) = try await signIn([
            Self.dpopTokens,
            RecordingTransport.Reply.json(401, "{}")
                .withHeader("WWW-Authenticate", #"DPoP error="use_dpop_nonce", error_description="nonce""#)
                .withHeader("DPoP-Nonce", "r-1"),
            RecordingTransport.Reply.json(200, #"{"ok":true}"#).withHeader("DPoP-Nonce", "r-2"),
            RecordingTransport.Reply.json(200, #"{"ok":true}"#),
        ])
        let url = Fixtures.url("https://api.example.com/items?page=2")
        let response = try await session.data(for: TransportRequest(url: url))
        #expect(response.status == 200)
        _ = try await session.data(for: TransportRequest(method: .post, url: url))
        let requests = Array(await transport.requests.dropFirst())
        #expect(requests.count == 3)
        #expect(requests.allSatisfy { $0.headerFields["Authorization"] == "DPoP at-1" })
        let claims = try requests.map(Self.proofClaims)
        #expect(claims[0]["nonce"] == nil && claims[1]["nonce"] == .string("r-1"))
        #expect(claims[2]["nonce"] == .string("r-2"), "the nonce of a 200 is used next")
        #expect(claims[0]["htu"] == .string("https://api.example.com/items"))
        #expect(claims[2]["htm"] == .string("POST"))
        #expect(claims.allSatisfy { $0["ath"] == .string(DPoPProof.accessTokenHash(AccessToken("at-1"))) })
    }

    @Test("authorize(URLRequest) stamps a DPoP token and a proof for that method and URL")
    func authorizeURLRequest() async throws {
        let (session, _, _) = try await signIn([Self.dpopTokens])
        var request = URLRequest(url: Fixtures.url("https://api.example.com/v1/files"))
        request.httpMethod = "PUT"
        let authorized = try await session.authorize(request)
        #expect(authorized.value(forHTTPHeaderField: "Authorization") == "DPoP at-1")
        let claims = try Self.proofClaims(try TransportRequest(authorized))
        #expect(claims["htm"] == .string("PUT") && claims["htu"] == .string("https://api.example.com/v1/files"))
    }

    @Test("A refresh carries a proof by the grant's key, and the refreshed session keeps the key")
    func refreshKeepsKey() async throws {
        let (session, transport, _) = try await signIn([
            Self.dpopTokens,
            .json(200, #"{"access_token":"at-2","token_type":"DPoP","expires_in":3600,"refresh_token":"rt-2"}"#),
        ])
        let key = await session.state.dpopKey
        let refreshed = try await session.refresh()
        #expect(refreshed.dpopKey == key && refreshed.accessTokenType == .dpop)
        let request = try #require(await transport.requests.last)
        #expect(request.formBody["refresh_token"] == "rt-1")
        #expect(try Self.proofClaims(request)["htm"] == .string("POST"))
    }

    @Test("A Bearer answer to a proof: Bearer requests, but the key stays for the refresh token it may bind")
    func bearerAnswerWhenAdvertised() async throws {
        let (session, transport, _) = try await signIn([
            .json(200, #"{"access_token":"at-1","token_type":"Bearer","refresh_token":"rt-1"}"#),
            .json(200, "{}"),
            .json(200, #"{"access_token":"at-2","token_type":"Bearer","refresh_token":"rt-2"}"#),
        ])
        let state = await session.state
        #expect(state.accessTokenType == .bearer && state.dpopKey != nil)
        _ = try await session.data(for: TransportRequest(url: Fixtures.url("https://api.example.com/items")))
        let resource = try #require(await transport.requests.last)
        #expect(resource.headerFields["Authorization"] == "Bearer at-1" && resource.headerFields["DPoP"] == nil)
        let refreshed = try await session.refresh()
        #expect(refreshed.dpopKey == state.dpopKey, "RFC 9449 §5: a public client's refresh token stays bound")
        #expect(try #require(await transport.requests.last).headerFields["DPoP"] != nil)
    }

    @Test("A DPoP session is written as envelope version 2, which releases before DPoP refuse; Bearer stays 1")
    func envelopeVersions() async throws {
        let (session, _, _) = try await signIn([Self.dpopTokens])
        let dpop = try JSONDecoder().decode([String: JSONValue].self, from: try await session.state.encoded())
        #expect(dpop["version"] == .number(2))
        let bearer = AuthState(server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at"))
        let plain = try JSONDecoder().decode([String: JSONValue].self, from: try bearer.encoded())
        #expect(plain["version"] == .number(1))
        var newer = dpop
        newer["version"] = .number(5)
        let error = #expect(throws: BearerError.self) { try AuthState(encoded: try JSONEncoder().encode(newer)) }
        #expect(error?.kind == .unreadableSession)
    }

    @Test("The device flow's polls carry proofs, and one is sent again with the server's nonce")
    func deviceFlow() async throws {
        var server = Self.dpopServer
        server.deviceAuthorizationEndpoint = Fixtures.url("https://auth.example.com/device")
        let clock = TestClock(Fixtures.epoch)
        let transport = RecordingTransport(replies: [
            .json(
                200,
                #"{"device_code":"dev","user_code":"ABCD","verification_uri":"https://auth.example.com/device","expires_in":1800,"interval":5}"#
            ),
            .json(400, #"{"error":"authorization_pending"}"#),
            Self.useNonce("n-1"),
            Self.dpopTokens,
        ])
        let session = try await AuthSession.signInWithDeviceCode(
            to: server, as: Fixtures.publicClient, scopes: ["email"], store: InMemorySessionStore(),
            transport: transport, clock: clock.wallClock, configuration: Self.configuration()
        ) { _ in }
        #expect(await session.state.accessTokenType == .dpop)
        let polls = await transport.requests(toPathEnding: "/token")
        #expect(polls.count == 3)
        let claims = try polls.map(Self.proofClaims)
        #expect(claims[1]["nonce"] == nil && claims[2]["nonce"] == .string("n-1"))
        #expect(Set(claims.map { $0["jti"] }).count == 3)
    }

    @Test("A sign-in finished from a pending sign-in binds its grant too")
    func pendingSignIn() async throws {
        let request = try Fixtures.request(server: Self.dpopServer)
        let pending = PendingSignIn(request: request, key: "main", createdAt: Fixtures.epoch, tokenParameters: [:])
        let transport = RecordingTransport(replies: [Self.dpopTokens])
        let session = try await AuthSession.finishSignIn(
            pending, redirect: Fixtures.redirect(for: request, query: "state=\(request.state)&code=c"),
            store: InMemorySessionStore(), key: "main", transport: transport, clock: .fixed(Fixtures.epoch),
            configuration: Self.configuration())
        #expect(await session.state.dpopKey != nil)
        #expect(await transport.requests.first?.headerFields["DPoP"] != nil)
    }

    @Test("takeDPoPNonce keeps a nonce from an answer the app received, for the next authorize")
    func nonceFromAppsOwnRequest() async throws {
        let (session, _, _) = try await signIn([Self.dpopTokens])
        let url = Fixtures.url("https://api.example.com/items")
        let refused = TransportResponse(
            status: 401,
            headerFields: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": "r-9"])
        #expect(await session.takeDPoPNonce(from: refused, for: url))
        let again = try await session.authorize(TransportRequest(url: url))
        #expect(try Self.proofClaims(again)["nonce"] == .string("r-9"))
        #expect(await !session.takeDPoPNonce(from: TransportResponse(status: 200), for: url))
    }

    @Test("A private key never shows in a description or a dump of the key, its record or the settings")
    func noKeyInDumps() async throws {
        let key = try await PlatformDPoPKeys().makeKey()
        var dumped = ""
        dump(key, to: &dumped)
        dump(key.record, to: &dumped)
        dump(Self.configuration().dpop, to: &dumped)
        let text = dumped + "\(key) \(key.record)"
        #expect(!text.contains(key.record.privateKey.value))
    }

    @Test("Where DPoP is required, a Bearer answer is refused and its grant revoked")
    func bearerAnswerWhenRequired() async throws {
        let transport = RecordingTransport(replies: [
            .json(200, #"{"access_token":"at-1","token_type":"Bearer","refresh_token":"rt-1"}"#),
            .json(200, "{}"), .json(200, "{}"),
        ])
        let store = InMemorySessionStore()
        let error = await #expect(throws: BearerError.self) {
            try await AuthSession.signIn(
                to: Fixtures.server, as: Fixtures.publicClient, scopes: ["email"], using: ScriptedAgent.approving(),
                store: store, key: "main", transport: transport, clock: .fixed(Fixtures.epoch),
                configuration: Self.configuration(.required))
        }
        #expect(error?.kind == .proofOfPossession)
        let revoked = await transport.requests(toPathEnding: "/revoke").map { $0.formBody["token"] }
        #expect(revoked == ["rt-1", "at-1"])
        #expect(try await store.load(key: "main") == nil)
    }

    @Test("A server whose metadata does not list ES256 gets a Bearer sign-in, with no proof")
    func notAdvertised() async throws {
        let (session, transport, agent) = try await signIn(
            [.json(200, #"{"access_token":"at-1","token_type":"Bearer"}"#)], server: Fixtures.server)
        #expect(await session.state.dpopKey == nil)
        #expect(await transport.requests.first?.headerFields["DPoP"] == nil)
        #expect(agent.presented.first?.additionalParameters["dpop_jkt"] == nil)
    }

    @Test("A DPoP token answering a request without a proof is refused, never sent as Bearer")
    func dpopWithoutProof() throws {
        let json: [String: JSONValue] = ["access_token": .string("at"), "token_type": .string("DPoP")]
        #expect(throws: BearerError.self) { try TokenResponse(json: json) }
        #expect(try TokenResponse(json: json, proofSent: true).accessTokenType == .dpop)
    }

    @Test("A token whose cnf.jkt names another key is refused and its grant revoked")
    func confirmationMismatch() async throws {
        let claims = Base64URL.encode(#"{"cnf":{"jkt":"another-key"}}"#.utf8)
        let token = "eyJhbGciOiJub25lIn0.\(claims).c2ln"
        let transport = RecordingTransport(replies: [
            .json(200, #"{"access_token":"\#(token)","token_type":"DPoP","refresh_token":"rt-1"}"#),
            .json(200, "{}"), .json(200, "{}"),
        ])
        let error = await #expect(throws: BearerError.self) {
            try await AuthSession.signIn(
                to: Self.dpopServer, as: Fixtures.publicClient, scopes: ["email"], using: ScriptedAgent.approving(),
                store: InMemorySessionStore(), key: "main", transport: transport, clock: .fixed(Fixtures.epoch),
                configuration: Self.configuration())
        }
        #expect(error?.kind == .proofOfPossession)
        #expect(await transport.requests(toPathEnding: "/revoke").count == 2)
    }

    @Test("A record that lost its key: nothing is sent, a typed error, the session kept in the store")
    func lostKey() async throws {
        let store = InMemorySessionStore()
        let state = AuthState(
            server: Self.dpopServer, client: Fixtures.publicClient, accessToken: AccessToken("at-1"),
            accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(3600), accessTokenType: .dpop,
            refreshToken: RefreshToken("rt-1"))
        try await store.save(state, key: "main")
        let transport = RecordingTransport()
        let session = try #require(
            try await AuthSession.restore(
                key: "main", from: store, transport: transport, clock: .fixed(Fixtures.epoch),
                configuration: Self.configuration()))
        let error = await #expect(throws: BearerError.self) {
            try await session.data(for: TransportRequest(url: Fixtures.url("https://api.example.com/items")))
        }
        #expect(error?.kind == .proofOfPossession)
        await #expect(throws: BearerError.self) { try await session.refresh() }
        #expect(await transport.requests.isEmpty, "no token goes without its key")
        #expect(try await store.load(key: "main") == state, "the session is kept as it was")
        #expect(await session.state.signInRequired == false)
    }

    @Test("A DPoP session restored without a key source sends nothing and is kept")
    func noKeySource() async throws {
        let store = InMemorySessionStore()
        let (signedIn, _, _) = try await signIn([Self.dpopTokens], store: store)
        let saved = await signedIn.state
        let transport = RecordingTransport()
        let session = try #require(
            try await AuthSession.restore(key: "main", from: store, transport: transport, clock: .fixed(Fixtures.epoch))
        )
        let error = await #expect(throws: BearerError.self) {
            try await session.authorize(TransportRequest(url: Fixtures.url("https://api.example.com/items")))
        }
        #expect(error?.kind == .proofOfPossession)
        #expect(await transport.requests.isEmpty)
        #expect(try await store.load(key: "main") == saved)
    }

    @Test("invalid_dpop_proof at a refresh fails that call and leaves the grant usable")
    func refusedProofDoesNotMark() async throws {
        let store = InMemorySessionStore()
        let (session, _, _) = try await signIn(
            [
                Self.dpopTokens,
                .json(403, #"{"error":"invalid_dpop_proof","error_description":"Invalid DPoP"}"#),
                .json(200, #"{"access_token":"at-2","token_type":"DPoP","refresh_token":"rt-2"}"#),
            ], store: store)
        let error = await #expect(throws: OAuthError.self) { try await session.refresh() }
        #expect(error?.code.rawValue == "invalid_dpop_proof")
        #expect(await session.state.signInRequired == false)
        #expect(try await session.refresh().refreshToken?.value == "rt-2")
    }

    @Test("UserInfo of a DPoP session goes with a proof and the DPoP scheme")
    func userInfo() async throws {
        var server = Self.dpopServer
        server.userinfoEndpoint = Fixtures.url("https://auth.example.com/userinfo")
        let (session, transport, _) = try await signIn(
            [Self.dpopTokens, .json(200, #"{"sub":"user-1"}"#)], server: server)
        _ = try await session.userInfo()
        let request = try #require(await transport.requests.last)
        #expect(request.headerFields["Authorization"] == "DPoP at-1")
        #expect(try Self.proofClaims(request)["htm"] == .string("GET"))
    }

    @Test("A sign-in whose save fails revokes its grant with a proof and leaves the saved session as it was")
    func failedSaveAtSignIn() async throws {
        let store = FaultyStore()
        let earlier = AuthState(
            server: Self.dpopServer, client: Fixtures.publicClient, accessToken: AccessToken("old"),
            refreshToken: RefreshToken("old-rt"))
        try await store.save(earlier, key: "main")
        await store.setFailsSaves(true)
        let transport = RecordingTransport(replies: [Self.dpopTokens, .json(200, "{}"), .json(200, "{}")])
        await #expect(throws: (any Error).self) {
            try await AuthSession.signIn(
                to: Self.dpopServer, as: Fixtures.publicClient, scopes: ["email"], using: ScriptedAgent.approving(),
                store: store, key: "main", transport: transport, clock: .fixed(Fixtures.epoch),
                configuration: Self.configuration())
        }
        let revocations = await transport.requests(toPathEnding: "/revoke")
        #expect(revocations.map { $0.formBody["token"] } == ["rt-1", "at-1"])
        #expect(revocations.allSatisfy { $0.headerFields["DPoP"] != nil }, "the grant's key proves the revocations")
        #expect(try await store.load(key: "main") == earlier)
    }

    @Test("A refresh whose save fails keeps the new tokens with their key in memory, and saves both together later")
    func failedSaveAtRefresh() async throws {
        let store = FaultyStore()
        let transport = RecordingTransport(replies: [
            Self.dpopTokens,
            .json(200, #"{"access_token":"at-2","token_type":"DPoP","expires_in":3600,"refresh_token":"rt-2"}"#),
        ])
        let session = try await AuthSession.signIn(
            to: Self.dpopServer, as: Fixtures.publicClient, scopes: ["email"], using: ScriptedAgent.approving(),
            store: store, key: "main", transport: transport, clock: .fixed(Fixtures.epoch),
            configuration: Self.configuration())
        let saved = try #require(try await store.load(key: "main"))
        await store.setFailsSaves(true)
        await #expect(throws: (any Error).self) { try await session.refresh() }
        #expect(try await store.load(key: "main") == saved, "the stored record keeps its tokens and their key")
        #expect(await session.state.refreshToken?.value == "rt-2")
        #expect(await session.state.dpopKey == saved.dpopKey)
        await store.setFailsSaves(false)
        _ = try await session.authorize(TransportRequest(url: Fixtures.url("https://api.example.com/items")))
        let now = try #require(try await store.load(key: "main"))
        #expect(now.refreshToken?.value == "rt-2" && now.dpopKey == saved.dpopKey)
    }
}
