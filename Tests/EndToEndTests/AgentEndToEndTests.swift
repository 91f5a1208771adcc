import Bearer
import BearerTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The front door against django-oauth-toolkit: one-call sign-in through the library's loopback
/// agent, with scripts/headless-browser as the user's browser, more scopes with a consent page,
/// cancel, denial, the device flow's progress, and disconnect.
@Suite("End to end: one-call sign-in with agents", .enabled(if: TestServer.isConfigured, TestServer.skipReason))
struct AgentEndToEndTests {
    /// A loopback agent whose "browser" is the headless one, approving or denying.
    private func agent(allow: Bool = true) throws -> LoopbackAgent {
        let command = try Browser.command + (allow ? "" : " --deny")
        return try LoopbackAgent(timeout: .seconds(120), opener: .command(command))
    }

    private func signIn(
        client: String = "bearer-cli",
        scopes: [String] = ["openid", "email", "drive.readonly"],
        store: any SessionStore
    ) async throws -> AuthSession {
        try await AuthSession.signIn(
            to: try await TestServer.discover(), as: try TestServer.client(client), scopes: scopes,
            using: try agent(), store: store, key: "e2e", transport: TestServer.transport)
    }

    @Test("One call signs in through the browser and the loopback agent, saves, and calls the API")
    func oneCallSignIn() async throws {
        let store = InMemorySessionStore()
        let session = try await signIn(store: store)
        #expect(await session.user?.email == "alice@example.com")
        let saved = try await store.load(key: "e2e")
        #expect(saved?.refreshToken == (await session.state.refreshToken))
        #expect(saved?.user == (await session.user))
        let (data, response) = try await session.data(for: try TestServer.driveAbout)
        #expect(response.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("alice@example.com"))
    }

    @Test("addScopes runs the consent page and merges the grant; asking again shows nothing")
    func addScopesWithConsent() async throws {
        let store = InMemorySessionStore()
        let session = try await signIn(client: "bearer-public", scopes: ["openid", "email"], store: store)
        #expect(await !session.hasGranted("drive.readonly"))
        #expect(try await session.addScopes(["drive.readonly"], using: try agent()) == .granted)
        #expect(await session.hasGranted("drive.readonly"))
        #expect(try await store.load(key: "e2e")?.hasGranted("drive.readonly") == true)
        let (_, response) = try await session.data(for: try TestServer.driveAbout)
        #expect(response.statusCode == 200)
        let unused = try LoopbackAgent(opener: BrowserOpener { _ in Issue.record("nothing should be shown") })
        #expect(try await session.addScopes(["email"], using: unused) == .alreadyGranted)
    }

    @Test("A cancelled sign-in stops waiting and saves nothing")
    func cancelSavesNothing() async throws {
        let store = InMemorySessionStore()
        let server = try await TestServer.discover()
        let opened = AsyncStream.makeStream(of: URL.self)
        let waiting = try LoopbackAgent(opener: BrowserOpener { opened.continuation.yield($0) })
        let port = waiting.port
        let signingIn = Task {
            try await AuthSession.signIn(
                to: server, as: try TestServer.client("bearer-cli"), scopes: ["email"], using: waiting,
                store: store, key: "e2e", transport: TestServer.transport)
        }
        var shown: URL?
        for await url in opened.stream {
            shown = url
            break
        }
        signingIn.cancel()
        await #expect(throws: CancellationError.self) { try await signingIn.value }
        #expect(try await store.keys().isEmpty)
        // The real answer, with the request's state, now finds nobody waiting for it.
        let items = URLComponents(url: try #require(shown), resolvingAgainstBaseURL: false)?.queryItems ?? []
        let state = try #require(items.first { $0.name == "state" }?.value)
        var late = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/callback?code=c&state=\(state)")))
        late.timeoutInterval = 2
        let answer = try? await TestServer.transport.send(late)
        #expect(answer?.1.statusCode != 200, "nothing answers the redirect after a cancel")
    }

    @Test("A denied consent is a typed access_denied, and nothing is saved")
    func deniedIsTyped() async throws {
        let store = InMemorySessionStore()
        let error = await #expect(throws: OAuthError.self) {
            _ = try await AuthSession.signIn(
                to: try await TestServer.discover(), as: try TestServer.client("bearer-public"),
                scopes: ["openid", "email"], using: try agent(allow: false), store: store, key: "e2e",
                transport: TestServer.transport)
        }
        #expect(error?.code == .accessDenied)
        #expect(try await store.keys().isEmpty)
    }

    @Test("The device flow reports the code and each wait as values, and signs in when approved")
    func deviceFlowProgress() async throws {
        let store = InMemorySessionStore()
        let events = Recorder<DeviceSignInProgress>()
        let session = try await AuthSession.signInWithDeviceCode(
            to: try await TestServer.discover(), as: try TestServer.client("bearer-device"),
            scopes: ["openid", "email", "drive.readonly"], store: store, key: "e2e", transport: TestServer.transport
        ) { progress in
            events.record(progress)
            if case .codeIssued(let code) = progress {
                Task { try await Browser.approveDevice(userCode: code.userCode, approve: true) }
            }
        }
        #expect(await session.user?.email == "alice@example.com")
        #expect(try await store.load(key: "e2e") != nil)
        guard case .codeIssued(let code)? = events.all.first else {
            Issue.record("the first progress value is not the code")
            return
        }
        #expect(!code.userCode.isEmpty)
        #expect(code.verificationURI.host == "127.0.0.1")
        #expect(code.expiresAt > Date())
        #expect(events.all.contains { if case .waiting = $0 { true } else { false } })
    }

    @Test("After disconnect the server rejects the old token, and the session is gone")
    func disconnectRevokes() async throws {
        let store = InMemorySessionStore()
        let session = try await signIn(store: store)
        let token = try await session.validAccessToken()
        #expect(try await TestServer.driveAbout(token: token).0 == 200)
        guard case .revoked = try await session.disconnect() else {
            Issue.record("the server did not revoke the grant")
            return
        }
        #expect(try await TestServer.driveAbout(token: token).0 == 401)
        #expect(try await store.keys().isEmpty)
    }
}
