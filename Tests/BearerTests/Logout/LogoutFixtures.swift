import Bearer
import BearerTestSupport
import Foundation

@_spi(Testing) @_spi(Migration) @testable import BearerCore

/// A provider that signs logout tokens, three stored sessions of its users, and a receiver on the
/// fake transport.
struct LogoutFixtures {
    static let jwksURL = Fixtures.url("https://auth.example.com/jwks")
    static let server = Fixtures.server.publishingKeys(at: jwksURL)
    static let clock = WallClock { Fixtures.epoch }

    let issuer: TestIssuer
    let store: InMemorySessionStore
    let transport: RecordingTransport
    let logout: BackChannelLogout<InMemorySessionStore>

    /// user-1 in provider sessions sid-1 and sid-2, user-2 in sid-3.
    static let sessions: [String: (subject: String, sid: String)] = [
        "first": ("user-1", "sid-1"), "second": ("user-1", "sid-2"), "other": ("user-2", "sid-3"),
    ]

    static func make(store: InMemorySessionStore = InMemorySessionStore()) async throws -> LogoutFixtures {
        let issuer = try await TestIssuer.make()
        let transport = RecordingTransport(replies: [.json(200, issuer.keySet())])
        let fixtures = LogoutFixtures(
            issuer: issuer, store: store, transport: transport,
            logout: try BackChannelLogout(
                server: server, clientIDs: [Fixtures.publicClient.id], store: store,
                verifier: PlatformSignatureVerifier(), transport: transport, clock: clock))
        for (key, session) in sessions {
            try await store.save(state(subject: session.subject, sid: session.sid), key: key)
        }
        return fixtures
    }

    private init(
        issuer: TestIssuer, store: InMemorySessionStore, transport: RecordingTransport,
        logout: BackChannelLogout<InMemorySessionStore>
    ) {
        self.issuer = issuer
        self.store = store
        self.transport = transport
        self.logout = logout
    }

    static func state(subject: String, sid: String) -> AuthState {
        AuthState(
            server: server, client: Fixtures.publicClient, accessToken: AccessToken("at-\(sid)"),
            accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(3600), refreshToken: RefreshToken("rt-\(sid)"),
            user: AuthState.User(subject: subject), providerSessionID: sid)
    }

    /// The claims of a valid logout token for sid-1 of user-1.
    static func claims(_ changes: [String: JSONValue?] = [:]) -> [String: JSONValue] {
        var claims: [String: JSONValue] = [
            "iss": .string(Fixtures.issuer), "aud": .string(Fixtures.publicClient.id), "sub": "user-1",
            "sid": "sid-1", "iat": .number(Fixtures.epoch.timeIntervalSince1970 - 5),
            "exp": .number(Fixtures.epoch.timeIntervalSince1970 + 115), "jti": .string(UUID().uuidString),
            "events": .object([LogoutToken.eventURI: .object([:])]),
        ]
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    var header: [String: JSONValue] { ["alg": "ES256", "kid": .string(issuer.keyID), "typ": "logout+jwt"] }

    func token(_ changes: [String: JSONValue?] = [:], header: [String: JSONValue]? = nil) async throws -> String {
        try await issuer.sign(Self.claims(changes), header: header ?? self.header)
    }

    /// The provider's POST of `token`.
    static func post(_ token: String) -> BackChannelLogout<InMemorySessionStore>.Request {
        .init(
            contentType: "application/x-www-form-urlencoded",
            body: Data(
                ("logout_token=" + (token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
                    .utf8))
    }

    /// The keys whose sessions need a new sign-in.
    func endedKeys() async throws -> [String] {
        var ended: [String] = []
        for key in try await store.keys() where try await store.load(key: key)?.signInRequiredError != nil {
            ended.append(key)
        }
        return ended
    }

    /// The OAuth error of an answer's body.
    static func error(of response: BackChannelLogout<InMemorySessionStore>.Response) -> String? {
        guard case .object(let object)? = try? JSONParser.parse(response.body) else { return nil }
        return object["error"]?.stringValue
    }
}
