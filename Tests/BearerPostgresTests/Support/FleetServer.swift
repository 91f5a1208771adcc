import Bearer
import Foundation
import Testing

@testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A django-oauth-toolkit server of the fleet tests' own (scripts/e2e-server with its own state
/// folder), with 2-second access tokens, refresh-token rotation and reuse protection.
struct FleetServer: Sendable {
    static let root = PostgresTestServer.root
    static let accessTokenSeconds = 2

    /// Whether the end-to-end environment is there (scripts/test sets BEARER_E2E_SERVER and
    /// BEARER_E2E_VENV).
    static var isConfigured: Bool {
        ProcessInfo.processInfo.environment["BEARER_E2E_SERVER"] != nil && PostgresTestServer.isInstalled
    }

    static let skipReason: Comment = """
        END-TO-END TESTS SKIPPED: the fleet tests need scripts/test (BEARER_E2E_SERVER, the end-to-end \
        virtual environment) and PostgreSQL's initdb and pg_ctl.
        """

    static var python: String {
        (ProcessInfo.processInfo.environment["BEARER_E2E_VENV"] ?? root.appendingPathComponent(".build/e2e-venv").path)
            + "/bin/python"
    }

    let state: URL
    let baseURL: URL

    private static func environment(_ state: URL) -> [String: String] {
        ["BEARER_E2E_STATE": state.path, "BEARER_E2E_ACCESS_TOKEN_SECONDS": String(accessTokenSeconds)]
    }

    /// The end-to-end server scripts/test started (which has the fleet's users and client too),
    /// for tests that need no server of their own; its grants are not read.
    static var shared: FleetServer {
        get throws {
            let address = try #require(ProcessInfo.processInfo.environment["BEARER_E2E_SERVER"])
            return FleetServer(state: URL(fileURLWithPath: "/nonexistent"), baseURL: try #require(URL(string: address)))
        }
    }

    static func start() async throws -> FleetServer {
        let state = URL(fileURLWithPath: "/tmp/bearer-fleet-\(UUID().uuidString.prefix(8))")
        let script = root.appendingPathComponent("scripts/e2e-server").path
        let run = try Spawned(script, ["start"], environment: environment(state))
        let (status, output) = await run.wait()
        guard status == 0, let line = output.split(separator: "\n").last, let url = URL(string: String(line)),
            line.hasPrefix("http")
        else { throw PostgresTestServer.Failure(description: "scripts/e2e-server start failed: \(output)") }
        return FleetServer(state: state, baseURL: url)
    }

    func stop() async {
        let script = Self.root.appendingPathComponent("scripts/e2e-server").path
        if let run = try? Spawned(script, ["stop"], environment: Self.environment(state)) { _ = await run.wait() }
        try? FileManager.default.removeItem(at: state)
    }

    func url(_ path: String) throws -> URL {
        try #require(URL(string: baseURL.absoluteString + path))
    }

    /// The fleet tests' client: trusted by the server, so its users see no consent page.
    static let client = Client(id: "bearer-trusted", redirectURI: URL(string: "com.example.bearer:/oauth2callback"))

    /// The server's metadata.
    func discover(using transport: URLSessionTransport) async throws -> AuthorizationServer {
        try await AuthorizationServerClient(transport: transport).discover(
            issuer: try url("/o"), allowingInsecureLoopback: true)
    }

    /// Signs `user` in through the headless browser with the trusted client (no consent page).
    func signIn(user: String, transport: URLSessionTransport) async throws -> AuthState {
        let request = try AuthorizationRequest(
            server: try await discover(using: transport), client: Self.client,
            scopes: ["openid", "email", "drive.readonly"])
        let redirect = try await authorize(request.url, as: user)
        return try await AuthorizationServerClient(transport: transport).exchange(
            try AuthorizationResponse(redirect: redirect, for: request), for: request)
    }

    /// Opens `url` in the headless browser as `user`, and returns where the server redirects.
    func authorize(_ url: URL, as user: String) async throws -> URL {
        let browser = try Spawned(
            Self.python,
            [
                Self.root.appendingPathComponent("scripts/headless-browser").path, "--quiet", "--user", user,
                "--password", "fleet-test-password", "--server", baseURL.absoluteString, "--print-redirect",
                url.absoluteString,
            ])
        let (status, output) = await browser.wait()
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        guard status == 0, let redirect = URL(string: line.trimmingCharacters(in: .whitespaces)) else {
            throw PostgresTestServer.Failure(description: "headless-browser failed for \(user)")
        }
        return redirect
    }

    /// One grant as the server's database has it: its refresh tokens in order of creation.
    struct Grant: Decodable {
        let user: String
        /// Seconds since 1970 at which each refresh token was created.
        let created: [Double]
        /// How many of them are still live (not revoked): 1 for a healthy grant.
        let live: Int
    }

    /// Every grant (refresh-token family) of the trusted client, read from the server's SQLite
    /// database with Python's sqlite3.
    func grants() async throws -> [Grant] {
        let script = """
            import json, sqlite3, sys
            from datetime import datetime
            db = sqlite3.connect(sys.argv[1])
            rows = db.execute(
                "SELECT r.token_family, u.username, r.created, r.revoked FROM oauth2_provider_refreshtoken r "
                "JOIN auth_user u ON u.id = r.user_id ORDER BY r.created")
            grants = {}
            for family, user, created, revoked in rows:
                grant = grants.setdefault(family, {"user": user, "created": [], "live": 0})
                grant["created"].append(datetime.fromisoformat(created).timestamp())
                grant["live"] += revoked is None
            print(json.dumps(list(grants.values())))
            """
        let run = try Spawned(Self.python, ["-c", script, state.appendingPathComponent("db.sqlite3").path])
        let (status, output) = await run.wait()
        guard status == 0 else { throw PostgresTestServer.Failure(description: "reading grants failed: \(output)") }
        return try JSONDecoder().decode([Grant].self, from: Data(output.utf8))
    }

    /// Token-endpoint refresh requests seen by the server.
    func refreshRequests(using transport: URLSessionTransport) async throws -> Int {
        let (data, _) = try await transport.send(URLRequest(url: try url("/counters")))
        let counters = try JSONDecoder().decode([String: JSONValue].self, from: data)
        guard case .object(let byClient)? = counters["token_requests_by_client"],
            case .object(let grants)? = byClient["bearer-trusted"]
        else { return 0 }
        return Int(grants["refresh_token"]?.numberValue ?? 0)
    }
}
