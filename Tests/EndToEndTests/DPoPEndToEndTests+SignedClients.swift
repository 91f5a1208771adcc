import Bearer
import Foundation
import Testing

@_spi(Testing) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension DPoPEndToEndTests {
    /// Signed clients at the stock glewlwyd's `oidcsigned` instance (Server/glewlwyd/README.md):
    /// a client registered with its key set (RFC 7591 `jwks`) authenticates with `private_key_jwt`
    /// and sends signed request objects (RFC 9101), and ID tokens are verified across a rotation of
    /// the server's signing key. Nested in the glewlwyd suite, whose tests run one at a time.
    @Suite("signed clients at glewlwyd: private_key_jwt, request objects, a key rotation")
    struct SignedClients {
        static let instance = "oidcsigned"
        static let port: UInt16 = 18183

        static func server() async throws -> AuthorizationServer {
            try await AuthorizationServerClient(transport: TestServer.transport).discover(
                issuer: try Glewlwyd.url("/api/" + instance), allowingInsecureLoopback: true)
        }

        /// A client registered at the instance with `key`'s public key set, by Bearer's registration.
        static func register(_ key: any DPoPKey, at server: AuthorizationServer) async throws -> Client {
            let redirect = try #require(URL(string: "http://127.0.0.1:\(port)/callback"))
            return try await AuthorizationServerClient(
                transport: TestServer.transport, clock: .system, dpop: nil, clientKeys: StaticClientKey(key)
            ).register("Bearer signed-client test", redirectURI: redirect, at: server)
        }

        static func configuration(
            _ key: any DPoPKey, audience: ClientAssertionAudience = .endpoint,
            requestObjects: RequestObjectUse = .always, pushing: PushedAuthorizationUse = .whenAdvertised
        ) -> AuthSession.Configuration {
            var configuration = AuthSession.Configuration(dpop: DPoPSettings(use: .never, keys: PlatformDPoPKeys()))
            configuration.clientKeys = StaticClientKey(key)
            configuration.clientAssertionAudience = audience
            configuration.requestObjects = requestObjects
            configuration.pushedAuthorization = pushing
            configuration.idTokenSignatures = IDTokenSignatureSettings(
                requirement: .required, verifier: PlatformSignatureVerifier())
            return configuration
        }

        /// The `kid` in the header of `state`'s ID token.
        static func idTokenKeyID(_ state: AuthState) -> String? {
            guard let token = state.idToken?.value, let header = token.split(separator: ".").first,
                let json = Base64URL.decode(header),
                let members = try? JSONDecoder().decode([String: JSONValue].self, from: json)
            else { return nil }
            return members["kid"]?.stringValue
        }

        /// Runs `Server/glewlwyd/configure.py rotate-key` against the instance.
        static func rotateSigningKey() async throws {
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Server/glewlwyd/configure.py")
            let base = try Glewlwyd.url("").absoluteString
            let python = URL(
                fileURLWithPath: ProcessInfo.processInfo.environment["BEARER_GLEWLWYD_PYTHON"] ?? "/usr/bin/python3")
            let result = await (try ChildProcess(python, arguments: [script.path, "rotate-key", base, instance]))
                .finish()
            try #require(result.status == 0, "configure.py rotate-key failed: \(result.stderr)")
        }

        @Test(
            "A client registered with its key set pushes a signed request object and signs in by private_key_jwt; refreshes sign anew"
        )
        func registeredKeySignsIn() async throws {
            let server = try await Self.server()
            #expect(server.pushedAuthorizationRequestEndpoint != nil)
            let key = try await PlatformDPoPKeys().makeKey()
            let client = try await Self.register(key, at: server)
            #expect(client.authentication == .privateKeyJWT && client.secret == nil)
            let transport = ObservingTransport()
            let session = try await AuthSession.signIn(
                to: server, as: client, scopes: ["openid", "email"], using: try Glewlwyd.agent(port: Self.port),
                store: InMemorySessionStore(), transport: transport, configuration: Self.configuration(key))
            let pushes = await transport.exchanges(toPathEnding: "/par")
            #expect(pushes.map(\.status) == [201])
            #expect(
                pushes.first?.formParameterNames
                    == ["client_id", "request", "client_assertion_type", "client_assertion"],
                "the push is the request object alone, with the client's assertion")
            let tokens = await transport.exchanges(toPathEnding: "/token")
            #expect(tokens.map(\.status) == [200])
            #expect(tokens.first?.formParameterNames.contains("client_assertion") == true)
            #expect(tokens.first?.formParameterNames.contains("client_secret") == false)
            #expect(await session.state.user?.email == "alice@example.com", "the ID token passed its signature check")

            _ = try await session.refresh()
            #expect(await transport.exchanges(toPathEnding: "/token").map(\.status) == [200, 200])
        }

        @Test("Not pushed, the signed request object goes through the browser, and the code is exchanged")
        func requestObjectThroughTheBrowser() async throws {
            let server = try await Self.server()
            let key = try await PlatformDPoPKeys().makeKey()
            let client = try await Self.register(key, at: server)
            let transport = ObservingTransport()
            let session = try await AuthSession.signIn(
                to: server, as: client, scopes: ["openid", "email"], using: try Glewlwyd.agent(port: Self.port),
                store: InMemorySessionStore(), transport: transport,
                configuration: Self.configuration(key, pushing: .never))
            #expect(await transport.exchanges(toPathEnding: "/par").isEmpty)
            #expect(await transport.exchanges(toPathEnding: "/token").map(\.status) == [200])
            #expect(await session.state.user?.email == "alice@example.com")
        }

        @Test("glewlwyd refuses an assertion naming the issuer at its PAR endpoint: 401, nothing shown or saved")
        func issuerAudienceRefused() async throws {
            let server = try await Self.server()
            let key = try await PlatformDPoPKeys().makeKey()
            let client = try await Self.register(key, at: server)
            let transport = ObservingTransport()
            let store = InMemorySessionStore()
            let error = await #expect(throws: BearerError.self) {
                _ = try await AuthSession.signIn(
                    to: server, as: client, scopes: ["openid"], using: NeverShownAgent(), store: store,
                    transport: transport, configuration: Self.configuration(key, audience: .issuer))
            }
            // glewlwyd answers 401 with an empty body, which says nothing more than its status.
            #expect(error?.kind == .invalidResponse && error?.reason.contains("HTTP 401") == true)
            #expect(await transport.exchanges(toPathEnding: "/par").map(\.status) == [401])
            #expect(await transport.exchanges(toPathEnding: "/token").isEmpty)
            #expect(try await store.keys().isEmpty)
        }

        @Test("After the server's signing key is rotated, an ID token naming the new key is verified after one refetch")
        func serverKeyRotation() async throws {
            let server = try await Self.server()
            let key = try await PlatformDPoPKeys().makeKey()
            let client = try await Self.register(key, at: server)
            // One configuration, so one key cache, across both sign-ins.
            let configuration = Self.configuration(key)
            let transport = ObservingTransport()
            let first = try await AuthSession.signIn(
                to: server, as: client, scopes: ["openid", "email"], using: try Glewlwyd.agent(port: Self.port),
                store: InMemorySessionStore(), transport: transport, configuration: configuration)
            let oldKey = try #require(Self.idTokenKeyID(await first.state))
            #expect(await transport.exchanges(toPathEnding: "/jwks").count == 1)

            try await Self.rotateSigningKey()
            // A clock past the refetch interval, so an unknown kid may fetch the set again.
            let later = WallClock { Date().addingTimeInterval(ServerKeyCache.minimumRefetchInterval + 1) }
            let second = try await AuthSession.signIn(
                to: server, as: client, scopes: ["openid", "email"], using: try Glewlwyd.agent(port: Self.port),
                store: InMemorySessionStore(), transport: transport, clock: later, configuration: configuration)
            let newKey = try #require(Self.idTokenKeyID(await second.state))
            #expect(newKey != oldKey, "glewlwyd signs with the new key")
            #expect(await transport.exchanges(toPathEnding: "/jwks").count == 2, "fetched again once, for the new kid")
            #expect(await second.state.user?.email == "alice@example.com")
        }

        @Test(
            "The tool: client-key prints a key set to register, login --client-key-file signs in, and token refreshes with it"
        )
        func tool() async throws {
            let server = try await Self.server()
            let tool = BearerTool()
            defer { tool.cleanUp() }
            try FileManager.default.createDirectory(at: tool.configDirectory, withIntermediateDirectories: true)
            let keyFile = tool.configDirectory.appendingPathComponent("client-key.json").path
            let made = try await tool.run(["client-key", keyFile])
            try #require(made.status == 0, "client-key failed: \(made.stderr)")

            // The user registers the printed key set with the server (here by RFC 7591, as an operator's portal would).
            let keySet = try JSONDecoder().decode(JSONValue.self, from: made.stdout)
            let registration = try JSONEncoder().encode([
                "client_name": JSONValue.string("bearer tool, signed-client test"),
                "redirect_uris": .array([.string("http://127.0.0.1:\(Self.port)/callback")]),
                "grant_types": .array([.string("authorization_code"), .string("refresh_token")]),
                "token_endpoint_auth_method": .string("private_key_jwt"), "jwks": keySet,
            ])
            let endpoint = try #require(server.registrationEndpoint)
            let answer = try await TestServer.transport.send(
                TransportRequest(
                    method: .post, url: endpoint, headerFields: ["Content-Type": "application/json"], body: registration
                ))
            try #require(answer.status == 200, "registration answered \(answer.status)")
            let clientID = try #require(
                try JSONDecoder().decode([String: JSONValue].self, from: answer.body)["client_id"]?.stringValue)

            let login = try await tool.run([
                "login", "--issuer", server.issuer.absoluteString, "--allow-insecure-loopback", "--client-id", clientID,
                "--client-key-file", keyFile, "--assertion-audience", "endpoint", "--scope", "openid email", "--port",
                String(Self.port), "--open-with", try Browser.command,
            ])
            try #require(login.status == 0, "login failed: \(login.stderr)")
            let signedIn = try #require(try await tool.store.load(key: "default"))
            #expect(signedIn.client.authentication == .privateKeyJWT && signedIn.client.secret == nil)

            var stale = signedIn
            stale.accessTokenExpiresAt = Date(timeIntervalSince1970: 0)
            try await tool.store.save(stale, key: "default")
            let token = try await tool.run(["token"])
            #expect(token.status == 0, "token failed: \(token.stderr)")
            let refreshed = try #require(try await tool.store.load(key: "default"))
            #expect(
                refreshed.accessToken != signedIn.accessToken, "the refresh, signed with the key file, was accepted")
            #expect(token.output == (refreshed.accessToken?.value ?? "-") + "\n")

            let scalar = try #require(
                try JSONDecoder().decode(
                    [String: JSONValue].self, from: Data(contentsOf: URL(fileURLWithPath: keyFile)))[
                        "d"]?.stringValue)
            for output in [made.output, made.stderr, login.output, login.stderr, token.stderr] {
                #expect(!output.contains(scalar), "the private key is never printed")
            }
        }
    }
}
