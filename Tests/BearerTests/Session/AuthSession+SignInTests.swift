import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Fleet) @_spi(Internals) @_spi(Migration) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An agent that answers each request as its script says, and records what it was shown.
final class ScriptedAgent: AuthorizationAgent, @unchecked Sendable {
    private let lock = NSLock()
    private var shown: [AuthorizationRequest] = []
    private let answer: @Sendable (AuthorizationRequest) throws -> URL

    init(_ answer: @escaping @Sendable (AuthorizationRequest) throws -> URL) {
        self.answer = answer
    }

    /// Closes the page, as a user who gives up.
    static var closing: ScriptedAgent { ScriptedAgent { _ in throw CancellationError() } }

    /// Answers with the code `code` and the request's state.
    static func approving(code: String = "the-code") -> ScriptedAgent {
        ScriptedAgent { Fixtures.redirect(for: $0, query: "state=\($0.state)&code=\(code)") }
    }

    var presented: [AuthorizationRequest] { lock.withLock { shown } }

    func present(_ request: AuthorizationRequest) async throws -> URL {
        lock.withLock { shown.append(request) }
        return try answer(request)
    }
}

@Suite("Signing in with one call")
struct SignInTests {
    static let tokens = RecordingTransport.Reply.json(
        200, #"{"access_token":"at-1","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-1","scope":"email"}"#)

    @Test("signIn presents the request, exchanges the code and saves the session before returning it")
    func signInSaves() async throws {
        let store = InMemorySessionStore()
        let agent = ScriptedAgent.approving()
        let transport = RecordingTransport(replies: [Self.tokens])
        let session = try await AuthSession.signIn(
            to: Fixtures.server, as: Fixtures.publicClient, scopes: ["email"], using: agent, store: store,
            key: "work", additionalParameters: ["login_hint": "user@example.com"], transport: transport,
            clock: .fixed(Fixtures.epoch))
        let presented = try #require(agent.presented.first)
        #expect(presented.scopes == ["email"])
        #expect(presented.redirectURI == Fixtures.publicClient.redirectURI)
        #expect(presented.additionalParameters == ["login_hint": "user@example.com"])
        let exchange = try #require(await transport.requests.first)
        #expect(exchange.formBody["code"] == "the-code")
        #expect(exchange.formBody["code_verifier"] == presented.pkce.verifier)
        let saved = try #require(try await store.load(key: "work"))
        #expect(saved.accessToken?.value == "at-1")
        #expect(await session.state == saved)
        #expect(session.key == "work")
    }

    @Test("A cancelled sign-in throws CancellationError, the one way a cancel arrives, and saves nothing")
    func cancelSavesNothing() async throws {
        let store = InMemorySessionStore()
        let transport = RecordingTransport(replies: [])
        await #expect(throws: CancellationError.self) {
            _ = try await AuthSession.signIn(
                to: Fixtures.server, as: Fixtures.publicClient, scopes: ["email"],
                using: ScriptedAgent.closing, store: store, transport: transport)
        }
        #expect(await transport.requests.isEmpty)
        #expect(try await store.keys().isEmpty)
    }

    @Test("access_denied is a typed OAuthError, distinct from a cancel, and saves nothing")
    func deniedIsTyped() async throws {
        let store = InMemorySessionStore()
        let denying = ScriptedAgent {
            Fixtures.redirect(for: $0, query: "error=access_denied&state=\($0.state)")
        }
        let error = await #expect(throws: OAuthError.self) {
            _ = try await AuthSession.signIn(
                to: Fixtures.server, as: Fixtures.publicClient, scopes: ["email"], using: denying, store: store,
                transport: RecordingTransport(replies: []))
        }
        #expect(error?.code == .accessDenied)
        #expect(try await store.keys().isEmpty)
    }

    @Test("A redirect with another state is refused and nothing is exchanged or saved")
    func forgedRedirectIsRefused() async throws {
        let store = InMemorySessionStore()
        let transport = RecordingTransport(replies: [Self.tokens])
        let forging = ScriptedAgent { Fixtures.redirect(for: $0, query: "state=forged&code=stolen") }
        let error = await #expect(throws: BearerError.self) {
            _ = try await AuthSession.signIn(
                to: Fixtures.server, as: Fixtures.publicClient, scopes: ["email"], using: forging, store: store,
                transport: transport)
        }
        #expect(error?.kind == .invalidRedirect)
        #expect(await transport.requests.isEmpty)
        #expect(try await store.keys().isEmpty)
    }

    @Test("The agent's own redirect URI is the one the request carries")
    func agentRedirectURIIsUsed() async throws {
        struct LoopbackLike: AuthorizationAgent {
            var redirectURI: URL? { Fixtures.url("http://127.0.0.1:50000/callback") }
            func present(_ request: AuthorizationRequest) async throws -> URL {
                #expect(request.redirectURI.absoluteString == "http://127.0.0.1:50000/callback")
                throw CancellationError()
            }
        }
        await #expect(throws: CancellationError.self) {
            _ = try await AuthSession.signIn(
                to: Fixtures.server, as: Fixtures.publicClient, scopes: ["email"], using: LoopbackLike(),
                store: InMemorySessionStore(), transport: RecordingTransport(replies: []))
        }
    }

    @Test("Google's server gets Google's configuration unless another is given")
    func googleConfigurationByDefault() async throws {
        func signIn(configuration: AuthSession.Configuration?) async throws -> AuthSession {
            try await AuthSession.signIn(
                to: .google, as: Fixtures.publicClient, scopes: ["email"], using: ScriptedAgent.approving(),
                store: InMemorySessionStore(), transport: RecordingTransport(replies: [Self.tokens]),
                configuration: configuration)
        }
        #expect(try await signIn(configuration: nil).configuration.allowedHosts == ["*.googleapis.com"])
        let mine = AuthSession.Configuration(allowedHosts: ["api.example.com"])
        #expect(try await signIn(configuration: mine).configuration.allowedHosts == ["api.example.com"])
        let other = try await AuthSession.save(
            AuthState(server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at")),
            to: InMemorySessionStore(), key: "o", transport: RecordingTransport(replies: []))
        #expect(other.configuration.allowedHosts == nil)
    }

    @Test("A sign-in that cannot be saved revokes its grant and reports the store's error")
    func unsavedSignInIsRevoked() async throws {
        let store = FaultyStore()
        await store.setFailsSaves(true)
        let transport = RecordingTransport(replies: [
            Self.tokens, .text(200, contentType: "text/plain", ""), .text(200, contentType: "text/plain", ""),
        ])
        let error = await #expect(throws: BearerError.self) {
            _ = try await AuthSession.signIn(
                to: Fixtures.server, as: Fixtures.publicClient, scopes: ["email"], using: ScriptedAgent.approving(),
                store: store, transport: transport)
        }
        #expect(error?.kind == .storageFailure)
        let revocations = await transport.requests(toPathEnding: "/revoke")
        #expect(revocations.map { $0.formBody["token"] } == ["rt-1", "at-1"])
    }
}

@Suite("More scopes, sign-out and saved accounts")
struct SessionFrontDoorTests {
    func signedIn(
        scopes: [String] = ["email"],
        replies: [RecordingTransport.Reply] = [],
        store: any SessionStore = InMemorySessionStore()
    ) async throws -> (AuthSession, RecordingTransport) {
        let transport = RecordingTransport(replies: replies)
        let state = AuthState(
            server: Fixtures.server,
            client: Fixtures.publicClient,
            accessToken: AccessToken("at-1"),
            accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(3600),
            refreshToken: RefreshToken("rt-1"),
            grantedScopes: scopes
        )
        let session = try await AuthSession.save(
            state, to: store, key: "main", transport: transport, clock: .fixed(Fixtures.epoch))
        return (session, transport)
    }

    @Test("addScopes returns at once when everything is granted, showing nothing")
    func alreadyGranted() async throws {
        let (session, transport) = try await signedIn()
        let agent = ScriptedAgent.approving()
        #expect(try await session.addScopes(["email"], using: agent) == .alreadyGranted)
        #expect(agent.presented.isEmpty)
        #expect(await transport.requests.isEmpty)
    }

    @Test("addScopes runs the incremental flow and saves the merged grant")
    func grantsAndSaves() async throws {
        let store = InMemorySessionStore()
        let (session, transport) = try await signedIn(
            replies: [
                .json(
                    200,
                    #"{"access_token":"at-2","token_type":"Bearer","expires_in":3600,"scope":"email drive.readonly"}"#
                )
            ],
            store: store
        )
        let agent = ScriptedAgent.approving(code: "more")
        #expect(try await session.addScopes(["drive.readonly"], using: agent) == .granted)
        let presented = try #require(agent.presented.first)
        #expect(presented.scopes == ["drive.readonly", "email"])
        #expect(presented.additionalParameters["include_granted_scopes"] == "true")
        #expect(await transport.requests.first?.formBody["code"] == "more")
        let saved = try #require(try await store.load(key: "main"))
        #expect(saved.hasGranted("drive.readonly"))
        #expect(saved.refreshToken?.value == "rt-1", "the old refresh token is kept when none comes back")
    }

    @Test("A cancelled addScopes leaves the session and the store unchanged")
    func cancelLeavesSession() async throws {
        let store = InMemorySessionStore()
        let (session, transport) = try await signedIn(store: store)
        let before = await session.state
        await #expect(throws: CancellationError.self) {
            try await session.addScopes(["drive.readonly"], using: ScriptedAgent.closing)
        }
        #expect(await session.state == before)
        #expect(try await store.load(key: "main") == before)
        #expect(await transport.requests.isEmpty)
    }

    @Test("savedAccounts lists every saved session, and an unreadable one with its problem, left in place")
    func listsAccounts() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FileSessionStore(directory: folder)
        #expect(try await AuthSession.savedAccounts(in: store).isEmpty)
        var state = AuthState(
            server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at"),
            refreshToken: RefreshToken("rt"), grantedScopes: ["email"])
        state.user = AuthState.User(subject: "u-1", email: "one@example.com")
        try await store.save(state, key: "one")
        try await store.save(state, key: "two")
        let broken = try store.fileURL(for: "broken")
        try Data("not a session".utf8).write(to: broken)
        _ = chmod(broken.path, 0o600)
        let accounts = try await AuthSession.savedAccounts(in: store)
        #expect(accounts.map(\.key) == ["broken", "one", "two"])
        #expect(accounts[1].user?.email == "one@example.com")
        #expect(accounts[1].grantedScopes == ["email"])
        #expect(!accounts[1].signInRequired)
        #expect(accounts[0].problem != nil && accounts[0].signInRequired)
        #expect(FileManager.default.fileExists(atPath: broken.path))
    }
}

@Suite("A client from GoogleSignIn's Info.plist keys")
struct GoogleSignInPlistTests {
    let clientID = "123-abc.apps.googleusercontent.com"

    func urlTypes(_ schemes: [String]) -> [[String: Any]] {
        [["CFBundleURLName": "google", "CFBundleURLSchemes": schemes]]
    }

    @Test("GIDClientID with its reversed client ID registered gives the Google iOS client")
    func readsTheClient() throws {
        let client = try Client.googleSignIn(infoDictionary: [
            "GIDClientID": clientID, "CFBundleURLTypes": urlTypes(["com.googleusercontent.apps.123-abc"]),
        ])
        #expect(client == (try Client.googleiOS(clientID: clientID)))
        let upper = try Client.googleSignIn(infoDictionary: [
            "GIDClientID": clientID, "CFBundleURLTypes": urlTypes(["COM.GoogleUserContent.apps.123-ABC"]),
        ])
        #expect(upper.id == clientID, "schemes compare case-insensitively, as GoogleSignIn does")
    }

    @Test("A missing GIDClientID or an unregistered scheme is a configuration error that says what to add")
    func refusesIncompleteConfiguration() {
        let missing = #expect(throws: BearerError.self) { try Client.googleSignIn(infoDictionary: [:]) }
        #expect(missing?.kind == .invalidConfiguration)
        #expect(missing?.reason.contains("GIDClientID") == true)
        let unregistered = #expect(throws: BearerError.self) {
            try Client.googleSignIn(infoDictionary: [
                "GIDClientID": clientID, "CFBundleURLTypes": urlTypes(["com.example.other"]),
            ])
        }
        #expect(unregistered?.reason.contains("com.googleusercontent.apps.123-abc") == true)
        let noTypes = #expect(throws: BearerError.self) {
            try Client.googleSignIn(infoDictionary: ["GIDClientID": clientID])
        }
        #expect(noTypes?.kind == .invalidConfiguration)
    }
}
