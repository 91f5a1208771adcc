import Bearer
import Foundation
import Testing

@_spi(Testing) @_spi(Internals) @testable import BearerCore

/// Token exchange against idpyoidc 5.0.0's own RFC 8693 implementation, and the ID-JAG its
/// helper issues (Server/idpyoidc/README.md: `--token-exchange --issue-id-jag`).
@Suite(
    "End to end: derived sessions from idpyoidc 5.0.0's token exchange", .serialized,
    .enabled(if: Idpyoidc.isConfigured, Idpyoidc.skipReason))
final class DerivedSessionEndToEndTests {
    /// The audience the server's token-exchange policy allows.
    static let billing = "https://billing.example"

    let script: ServerScript

    init() async throws {
        script = try await ServerScript(
            "idpyoidc/server.py", python: try Idpyoidc.interpreter(),
            arguments: ["--fill-outer-parameters", "--issue-refresh", "--token-exchange", "--issue-id-jag"])
    }

    deinit { script.stop() }

    /// A registered client signed in as alice under `main` in `store`, with its configuration.
    func signedIn(in store: any SessionStore) async throws -> (
        AuthorizationServer, Client, AuthSession.Configuration, AuthSession
    ) {
        let (server, client, configuration, session, _) = try await signedInWithKey(in: store)
        return (server, client, configuration, session)
    }

    /// As ``signedIn(in:)``, with the client's key.
    func signedInWithKey(in store: any SessionStore) async throws -> (
        AuthorizationServer, Client, AuthSession.Configuration, AuthSession, any DPoPKey
    ) {
        let server = try await Idpyoidc.server(at: script.base)
        let key = try await PlatformDPoPKeys().makeKey()
        let client = try await Idpyoidc.register(key, at: server)
        let configuration = Idpyoidc.configuration(key, requestObjects: .never, pushing: .never)
        let session = try await AuthSession.signIn(
            to: server, as: client, scopes: ["openid", "email"], using: DirectRedirectAgent(), store: store,
            key: "main", transport: TestServer.transport, configuration: configuration)
        return (server, client, configuration, session, key)
    }

    @Test("A derived session exchanges the parent's access token, and exchanges again from a refreshed parent")
    func exchangeAndExchangeAgain() async throws {
        let store = InMemorySessionStore()
        let (server, client, configuration, parent) = try await signedIn(in: store)
        let transport = ObservingTransport()
        let derived = try await AuthSession.derive(
            .tokenExchange(from: "main", audiences: [Self.billing]), at: server, as: client, store: store,
            transport: transport, configuration: configuration)
        let first = try await derived.validAccessToken()
        #expect(first != (await parent.state.accessToken), "idpyoidc issued a token of its own")
        let exchanges = await transport.exchanges(toPathEnding: server.tokenEndpoint.path)
        #expect(exchanges.map(\.status) == [200])
        #expect(exchanges.first?.formParameterNames.contains("subject_token") == true)
        #expect(await derived.state.derivation?.parentKey == "main")

        // The parent refreshes; the derived session, refreshed, sends the parent's new token.
        _ = try await parent.refresh()
        let parentToken = try #require(await parent.state.accessToken)
        let again = try await derived.refresh()
        #expect(again.accessToken != first)
        #expect(try await store.load(key: derived.key)?.accessToken == again.accessToken)
        let second = await transport.exchanges(toPathEnding: server.tokenEndpoint.path)
        #expect(second.count == 2)
        #expect(second.last?.subjectTokenDigest == SHA256.hash(Array(parentToken.value.utf8)))
        #expect(second.first?.subjectTokenDigest != second.last?.subjectTokenDigest)

        // Signing out of the parent removes what was derived from it.
        try await parent.signOut()
        #expect(try await store.load(key: derived.key) == nil)
    }

    @Test("idpyoidc refuses an audience its policy does not list: invalid_target, and nothing is saved")
    func unknownAudience() async throws {
        let store = InMemorySessionStore()
        let (server, client, configuration, _) = try await signedIn(in: store)
        let error = await #expect(throws: OAuthError.self) {
            _ = try await AuthSession.derive(
                .tokenExchange(from: "main", audiences: ["https://elsewhere.example"]), at: server, as: client,
                store: store, transport: TestServer.transport, configuration: configuration)
        }
        #expect(error?.code == .invalidTarget)
        #expect(try await store.keys() == ["main"])
    }

    @Test("The helper's ID-JAG passes Bearer's checks for its audience and client, and fails them for another")
    func identityAssertion() async throws {
        let store = InMemorySessionStore()
        let (server, client, configuration, parent) = try await signedIn(in: store)
        let idToken = try #require(await parent.state.idToken)
        let mcpServer = AuthorizationServer(
            issuer: try #require(URL(string: "https://mcp-as.example")),
            authorizationEndpoint: try #require(URL(string: "https://mcp-as.example/authorize")),
            tokenEndpoint: try #require(URL(string: "https://mcp-as.example/token")))
        let resource = try ProtectedResource(try #require(URL(string: "https://mcp.example/mcp")))
        let answer = try await AuthorizationServerClient(
            transport: TestServer.transport, clock: .system, configuration: configuration
        )
        .exchangeToken(
            TokenExchangeRequest(
                subjectToken: SecurityToken(idToken.value), subjectTokenType: .idToken,
                requestedTokenType: .identityAssertion, audiences: [mcpServer.issuer.absoluteString],
                resources: [resource.identifier]),
            at: server, as: client)
        #expect(answer.issuedTokenType == .identityAssertion)
        #expect(answer.tokenType == "N_A")
        let enterpriseClient = Client(id: "mcp-enterprise-client")
        _ = try IdentityAssertion(answer, for: mcpServer, as: enterpriseClient, resource: resource, clock: .system)
        let otherServer = AuthorizationServer(
            issuer: try #require(URL(string: "https://attacker.example")), authorizationEndpoint: mcpServer.issuer,
            tokenEndpoint: mcpServer.tokenEndpoint)
        #expect(throws: BearerError.self) {
            _ = try IdentityAssertion(
                answer, for: otherServer, as: enterpriseClient, resource: resource, clock: .system)
        }
        #expect(throws: BearerError.self) {
            _ = try IdentityAssertion(answer, for: mcpServer, as: client, resource: resource, clock: .system)
        }
    }

    @Test("Four processes holding the stale derived session make one exchange, and refresh the parent once")
    func fourProcesses() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("derived-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("sessions", isDirectory: true)
        let store = FileSessionStore(directory: folder)
        let (server, client, configuration, _, key) = try await signedInWithKey(in: store)
        let derived = try await AuthSession.derive(
            .tokenExchange(from: "main", audiences: [Self.billing]), at: server, as: client, store: store,
            transport: TestServer.transport, configuration: configuration)
        let first = try #require(await derived.state.accessToken)
        let keyFile = root.appendingPathComponent("client-key.json")
        try JSONEncoder().encode(key.record).write(to: keyFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
        // Both sessions stale here, though not yet at the server: the client's assertions need the
        // real time, so the clock is not moved.
        for key in ["main", derived.key] {
            var stale = try #require(try await store.load(key: key))
            stale.accessTokenExpiresAt = Date().addingTimeInterval(-10)
            try await store.save(stale, key: key)
        }
        let offset = "0"

        let probe = try ProbeProcess.executable()
        let go = root.appendingPathComponent("go").path
        let ready = (0..<4).map { root.appendingPathComponent("\($0).ready").path }
        let processes = try ready.map { readyFile in
            try ProbeProcess(
                probe, arguments: ["--derived", folder.path, derived.key, offset, keyFile.path, readyFile, go])
        }
        for _ in 0..<6_000 where !ready.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(FileManager.default.createFile(atPath: go, contents: Data()))
        let outputs = try await ProbeProcess.outputs(of: processes)
        let lines = outputs.map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ") }
        for (output, line) in zip(outputs, lines) {
            #expect(output.status == 0 && line.first == "ok" && line.count == 4, "\(output.text)")
        }
        #expect(Set(lines.map { $0.dropFirst().first }).count == 1, "every process has the same new token")
        #expect(lines.compactMap { $0.count == 4 ? Int($0[2]) : nil }.reduce(0, +) == 1, "one exchange in all")
        #expect(lines.compactMap { $0.count == 4 ? Int($0[3]) : nil }.reduce(0, +) == 1, "one parent refresh")
        let stored = try #require(try await store.load(key: derived.key))
        #expect(stored.accessToken != first)
        #expect(stored.derivation?.parentKey == "main")
    }
}
