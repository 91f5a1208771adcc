import Bearer
import BearerPostgres
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// glewlwyd's `oidclogout` instance (scripts/glewlwyd-server; see
/// Tests/EndToEndTests/Server/glewlwyd/README.md): session management, its end-session endpoint
/// and back-channel logout to the client `bearer-logout`.
enum GlewlwydLogout {
    static let baseURL = ProcessInfo.processInfo.environment["BEARER_GLEWLWYD_SERVER"]

    static var isConfigured: Bool { baseURL != nil && FleetServer.isConfigured }

    static let skipReason: Comment = """
        GLEWLWYD TESTS SKIPPED: the logout tests need BEARER_GLEWLWYD_SERVER and the end-to-end \
        environment; run scripts/test.
        """

    static let client = Client(id: "bearer-logout", redirectURI: URL(string: "http://127.0.0.1:18184/callback"))
    static let redirectPort: UInt16 = 18184
    /// Where configure.py registered the client's `backchannel_logout_uri`.
    static let backChannelPort = "18185"

    static var issuer: URL {
        get throws {
            let base = try #require(baseURL)
            return try #require(URL(string: base + "/api/oidclogout"))
        }
    }

    /// A loopback agent whose browser is scripts/headless-browser with its cookies in `jar`: a
    /// person's browser, which keeps its provider session from one sign-in to the next.
    static func agent(cookies jar: URL) throws -> LoopbackAgent {
        let script = FleetServer.root.appendingPathComponent("scripts/headless-browser").path
        return try LoopbackAgent(
            port: redirectPort, timeout: .seconds(120),
            opener: .command("'\(FleetServer.python)' '\(script)' --quiet --cookie-jar '\(jar.path)'"))
    }
}

extension SharedPostgresServer {
    @Suite(
        "End to end: signing out at glewlwyd ends the fleet's sessions",
        .serialized, .enabled(if: GlewlwydLogout.isConfigured, GlewlwydLogout.skipReason))
    struct LogoutEndToEndTests {
        @Test(
            """
            Signing out at the provider (id_token_hint, post_logout_redirect_uri, state) removes the app's \
            session, and glewlwyd's back-channel logout, received by another instance, ends the other session \
            of that provider session in PostgreSQL; a session of another provider session keeps working
            """)
        func providerLogoutEndsFleetSessions() async throws {
            let table = StoreFixtures.uniqueTable()
            let store = try await StoreFixtures.store(table: table)
            let connection = try PostgresTestServer.running.connectionString
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-logout-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let browser = folder.appendingPathComponent("browser-cookies.json")
            let otherBrowser = folder.appendingPathComponent("other-browser-cookies.json")
            let receiver = try Spawned(
                try BuiltWorker.path(),
                [
                    "logout-receiver", connection, table, try GlewlwydLogout.issuer.absoluteString,
                    GlewlwydLogout.client.id, GlewlwydLogout.backChannelPort,
                ])
            defer { receiver.kill() }
            do {
                #expect(
                    try await receiver.waitForOutput(containing: "listening", within: 30), "\(receiver.output)")
                let server = try await AuthorizationServerClient(transport: URLSessionTransport()).discover(
                    issuer: try GlewlwydLogout.issuer, allowingInsecureLoopback: true)
                #expect(server.endSessionEndpoint?.path.hasSuffix("/api/oidclogout/end_session") == true)
                func signIn(_ key: String, cookies: URL) async throws -> AuthSession {
                    try await AuthSession.signIn(
                        to: server, as: GlewlwydLogout.client, scopes: ["openid", "email"],
                        using: try GlewlwydLogout.agent(cookies: cookies), store: store, key: key)
                }
                // One browser signs in twice (one provider session, so one sid); another browser once.
                let app = try await signIn("alice-app", cookies: browser)
                let fleet = try await signIn("alice-fleet", cookies: browser)
                let elsewhere = try await signIn("alice-elsewhere", cookies: otherBrowser)
                let sid = try #require(await app.state.providerSessionID, "glewlwyd puts sid in its ID tokens")
                #expect(await fleet.state.providerSessionID == sid)
                #expect(await elsewhere.state.providerSessionID != sid)

                let outcome = try await app.disconnect(
                    endingProviderSessionWith: try GlewlwydLogout.agent(cookies: browser))
                guard case .ended = outcome.providerSession else {
                    Issue.record("the provider did not confirm the logout: \(outcome.providerSession)")
                    return
                }
                #expect(try await store.load(key: "alice-app") == nil, "the app's own session is gone")
                #expect(
                    try await receiver.waitForOutput(containing: "logout 200", within: 30),
                    "glewlwyd posted a logout token that was accepted: \(receiver.output)")

                // Every instance now reads the other session of that provider session as ended.
                let status = try Spawned(try BuiltWorker.path(), ["status", connection, table, "alice-fleet"])
                let result = await status.wait()
                #expect(result.output.contains("sign-in-required"), "\(result.output)")
                let restored = try #require(try await AuthSession.restore(key: "alice-fleet", from: store))
                let refused = await #expect(throws: BearerError.self) { _ = try await restored.validAccessToken() }
                #expect(refused?.signInRequired == true)
                #expect(try await store.load(key: "alice-fleet")?.refreshToken != nil, "its tokens are kept")
                // The session of the other provider session still works.
                let still = try #require(try await AuthSession.restore(key: "alice-elsewhere", from: store))
                _ = try await still.validAccessToken()
                #expect(await still.state.signInRequiredError == nil)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
    }
}
