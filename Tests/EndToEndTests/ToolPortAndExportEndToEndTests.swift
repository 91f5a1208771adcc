import Bearer
import Foundation
import Testing

/// The tool on a server that matches loopback ports exactly, and its sessions used by Google's
/// client libraries (google-auth) through `export --format adc`.
@Suite(
    "End to end: the tool's --port and adc export", .serialized,
    .enabled(if: TestServer.isConfigured, TestServer.skipReason))
struct ToolPortAndExportEndToEndTests {
    /// The port `bearer-exact-port` registers (Server/README.md).
    private let exactPort = "48613"

    private func login(_ tool: BearerTool, client: String, scope: String, extra: [String]) async throws
        -> ChildProcess.Result
    {
        try await tool.run(
            [
                "login", "--issuer", try TestServer.issuer.absoluteString, "--allow-insecure-loopback",
                "--client-id", client, "--scope", scope, "--open-with", try Browser.command,
            ] + extra
        )
    }

    @Test("add-scopes --port on a server that matches the port: the remembered port works, another is refused")
    func addScopesOnExactPort() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        let login = try await login(
            tool, client: "bearer-exact-port", scope: "openid email", extra: ["--port", exactPort])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stderr.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A\(exactPort)%2Fcallback"))

        let otherPort = try await tool.run(
            ["add-scopes", "profile", "--port", "48614", "--timeout", "5", "--open-with", try Browser.command])
        #expect(otherPort.status != 0, "the server refuses a redirect URI with another port")
        #expect(try await tool.store.load(key: "default")?.grantedScopes == ["openid", "email"])

        // No --port: the profile's port.
        let remembered = try await tool.run(["add-scopes", "drive.readonly", "--open-with", try Browser.command])
        #expect(remembered.status == 0, "\(remembered.stderr)")
        #expect(remembered.stderr.contains("127.0.0.1%3A\(exactPort)"))
        let explicit = try await tool.run(
            ["add-scopes", "profile", "--port", exactPort, "--open-with", try Browser.command])
        #expect(explicit.status == 0, "\(explicit.stderr)")
        let state = try #require(try await tool.store.load(key: "default"))
        #expect(Set(state.grantedScopes) == ["openid", "email", "drive.readonly", "profile"])
        let curl = try await tool.run(["curl", try TestServer.url("/drive/v3/about?fields=user").absoluteString])
        #expect(curl.status == 0, "\(curl.stderr)")
    }

    @Test("export --format adc writes a 0600 file that google-auth loads and refreshes from")
    func exportForGoogleAuth() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        try FileManager.default.createDirectory(at: tool.configDirectory, withIntermediateDirectories: true)
        let secret = tool.configDirectory.appendingPathComponent("secret")
        try Data("bearer-confidential-test-secret\n".utf8).write(to: secret)
        let login = try await login(
            tool, client: "bearer-confidential", scope: "openid email drive.readonly",
            extra: ["--client-secret-file", secret.path])
        #expect(login.status == 0, "\(login.stderr)")

        let file = tool.configDirectory.appendingPathComponent("adc.json")
        let export = try await tool.run(["export", "--format", "adc", "--output", file.path])
        #expect(export.status == 0, "\(export.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let fields = try JSONDecoder().decode([String: String].self, from: try Data(contentsOf: file))
        #expect(Set(fields.keys) == ["type", "client_id", "client_secret", "refresh_token", "token_uri"])
        #expect(fields["token_uri"] == (try TestServer.url("/o/token/")).absoluteString)

        let result = try await ChildProcess(Browser.python, arguments: ["-c", Self.refresh, file.path]).finish()
        #expect(result.status == 0, "\(result.stderr)")
        let token = AccessToken(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(try await TestServer.driveAbout(token: token).0 == 200)
    }

    /// Loads the file as Google's libraries do, then refreshes with its fields. google-auth sends
    /// an authorized_user file's refreshes to Google's token endpoint whatever `token_uri` says,
    /// so the refresh against the test server names the file's `token_uri` itself.
    private static let refresh = """
        import json, sys
        import google.auth
        import google.auth.transport.requests
        import google.oauth2.credentials

        path = sys.argv[1]
        loaded, _ = google.auth.load_credentials_from_file(path)
        info = json.load(open(path))
        assert isinstance(loaded, google.oauth2.credentials.Credentials)
        assert loaded.refresh_token == info["refresh_token"] and loaded.client_id == info["client_id"]
        credentials = google.oauth2.credentials.Credentials(
            None,
            refresh_token=loaded.refresh_token,
            token_uri=info["token_uri"],
            client_id=loaded.client_id,
            client_secret=loaded.client_secret,
        )
        credentials.refresh(google.auth.transport.requests.Request())
        print(credentials.token)
        """
}
