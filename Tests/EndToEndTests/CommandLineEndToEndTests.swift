import Bearer
import Foundation
import Testing

@testable import BearerCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The built `bearer` executable, run as a subprocess against the real server: every command,
/// every exit code, the loopback listener's edge cases, the device flow, and concurrent processes.
@Suite("End to end: the bearer tool", .serialized, .enabled(if: TestServer.isConfigured, TestServer.skipReason))
struct CommandLineEndToEndTests {
    let client = "bearer-cli"

    func issuer() throws -> String {
        try TestServer.issuer.absoluteString
    }

    func login(
        _ tool: BearerTool, client: String? = nil, scope: String = "openid email drive.readonly", extra: [String] = []
    )
        async throws -> ChildProcess.Result
    {
        try await tool.run(
            [
                "login", "--issuer", try issuer(), "--allow-insecure-loopback", "--client-id", client ?? self.client,
                "--scope", scope, "--open-with", try Browser.command,
            ] + extra
        )
    }

    /// Every token value the profile has held, to check outputs against.
    func secrets(_ tool: BearerTool, profile: String = "default") async throws -> [String] {
        let state = try await tool.store.load(key: profile)
        return [state?.accessToken?.value, state?.refreshToken?.value, state?.idToken?.value].compactMap { $0 }
    }

    @Test("login, status, token, curl, export, logout: the whole tool, and no token on stderr or in status")
    func wholeTool() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        let login = try await login(tool, client: "bearer-public")
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stderr.contains("Signed in as alice@example.com"))
        #expect(login.stderr.contains("Granted scopes: openid email drive.readonly"))
        #expect(login.stderr.contains("press Ctrl-C to cancel"))
        #expect(login.stdout.isEmpty)

        let status = try await tool.run(["status"])
        #expect(status.status == 0)
        #expect(status.output.contains("alice@example.com (sub 1)"))
        #expect(status.output.contains("Needs sign-in: no"))

        let json = try await tool.run(["status", "--json"])
        let object = try JSONDecoder().decode([String: JSONValue].self, from: json.stdout)
        #expect(
            Set(object.keys)
                == [
                    "profile", "email", "sub", "scopes", "expires_at", "sign_in_required", "needs_reauthentication",
                    "token_type", "dpop_jkt", "issuer", "resource", "client_id", "session_file", "account",
                ]
        )
        #expect(object["token_type"] == "Bearer")
        #expect(object["dpop_jkt"] == .null)
        #expect(object["email"] == "alice@example.com")
        #expect(object["sign_in_required"] == false)
        // 0.1.0's name for the same answer, kept until the next minor release.
        #expect(object["needs_reauthentication"] == false)
        #expect(object["scopes"] == ["openid", "email", "drive.readonly"])
        #expect(object["expires_at"]?.stringValue?.hasSuffix("Z") == true)

        let token = try await tool.run(["token"])
        #expect(token.status == 0)
        #expect(token.stderr.isEmpty)
        let lines = token.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "one line and a newline, nothing else")
        let (driveStatus, _, _) = try await TestServer.driveAbout(token: AccessToken(String(lines[0])))
        #expect(driveStatus == 200)

        let curl = try await tool.run(["curl", try TestServer.url("/drive/v3/about?fields=user").absoluteString])
        #expect(curl.status == 0)
        #expect(curl.output.contains("alice@example.com"))

        let exported = try await tool.run(["export", "--format", "gtmoauth2"])
        #expect(exported.status == 0)
        #expect(exported.output.contains("refresh_token="))
        let archive = try await tool.run(["export", "--format", "gtmappauth"])
        #expect(archive.stdout.starts(with: Array("bplist00".utf8)))

        let secrets = try await secrets(tool)
        #expect(secrets.count == 3)
        for output in [login.stderr, status.output, status.stderr, json.output, token.stderr, curl.stderr] {
            for secret in secrets {
                #expect(!output.contains(secret), "a token value appeared in the tool's output")
            }
        }

        let logout = try await tool.run(["logout"])
        #expect(logout.status == 0)
        #expect(logout.stderr.contains("revoked"))
        let after = try await tool.run(["token"])
        #expect(after.status == 77)
        #expect(after.stderr.contains("bearer login"))
        let (revokedStatus, _, _) = try await TestServer.driveAbout(token: AccessToken(String(lines[0])))
        #expect(revokedStatus == 401)
    }

    @Test(
        "Usage errors exit 64 with a one-line message",
        arguments: [
            ["login", "--bogus"], ["login", "--issuer"], ["frobnicate"], ["curl"], ["token", "--profile"],
            ["status", "--json=yes"], ["export", "--format", "xml"], ["login", "--google", "--client-id", "x"],
            ["login", "--google", "--issuer", "https://x", "--client-id", "x", "--scope", "a"],
            ["token", "--profile", "../x"],
            ["migrate", "--from", "nope", "file"], ["add-scopes"],
        ])
    func usageErrors(arguments: [String]) async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        let result = try await tool.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix("bearer: "))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stdout.isEmpty)
    }

    @Test("Help documents every command and exits 0")
    func help() async throws {
        let tool = BearerTool()
        let general = try await tool.run(["--help"])
        #expect(general.status == 0)
        for command in ["login", "token", "curl", "status", "add-scopes", "logout", "migrate", "export"] {
            #expect(general.output.contains(command))
            let specific = try await tool.run(["help", command])
            #expect(specific.status == 0 && specific.output.contains("usage: bearer \(command)"))
            let flag = try await tool.run([command, "--help"])
            #expect(flag.output == specific.output)
        }
        let bare = try await tool.run([])
        #expect(bare.status == 64)
    }

    @Test(
        "Exit codes: 77 without a session or after revocation, 22 for HTTP errors, 65 for bad data, 69 unreachable, 1 otherwise"
    )
    func exitCodes() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        #expect(try await tool.run(["token"]).status == 77)
        #expect(try await login(tool).status == 0)

        let notFound = try await tool.run(["curl", try TestServer.url("/drive/v3/missing").absoluteString])
        #expect(notFound.status == 22)
        #expect(!notFound.stdout.isEmpty, "the body still goes to stdout")
        let insecure = try await tool.run(["curl", "http://example.com/"])
        #expect(insecure.status == 1)
        #expect(insecure.stderr.contains("https"))

        let missingFile = try await tool.run([
            "migrate", "--from", "adc", "/nonexistent/file.json", "--profile", "other",
        ])
        #expect(missingFile.status == 65)
        let garbage = tool.configDirectory.appendingPathComponent("garbage.bin")
        try Data("not a session".utf8).write(to: garbage)
        let badArchive = try await tool.run(["migrate", "--from", "gtmappauth", garbage.path, "--profile", "other"])
        #expect(badArchive.status == 65)
        let unreadable = try await tool.run(["migrate", "--from", "adc", garbage.path])
        #expect(unreadable.status == 65)
        // An import naming no user is not put beside the profile's named account, with or without --force.
        let adc = tool.configDirectory.appendingPathComponent("adc.json")
        try Data(
            #"{"type":"authorized_user","client_id":"c.apps.googleusercontent.com","client_secret":"s","refresh_token":"r"}"#
                .utf8
        ).write(to: adc)
        for extra in [[], ["--force"]] {
            let overwrite = try await tool.run(["migrate", "--from", "adc", adc.path] + extra)
            #expect(overwrite.status == 64)
            #expect(overwrite.stderr.contains("another --profile"))
        }

        // A corrupt session file: 65, and the file is left as it is.
        let corruptFile = try tool.store.fileURL(for: "corrupt")
        try Data("{ not json".utf8).write(to: corruptFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: corruptFile.path)
        let corrupt = try await tool.run(["token", "--profile", "corrupt"])
        #expect(corrupt.status == 65)
        #expect(corrupt.stderr.contains(corruptFile.path))
        #expect(try Data(contentsOf: corruptFile) == Data("{ not json".utf8))

        // A server that is gone: 69, and the session is unchanged.
        var unreachable = try #require(try await tool.store.load(key: "default"))
        unreachable.server.tokenEndpoint = try #require(URL(string: "http://127.0.0.1:9/o/token/"))
        unreachable.accessTokenExpiresAt = Date(timeIntervalSince1970: 0)
        try await tool.store.save(unreachable, key: "gone")
        let gone = try await tool.run(["token", "--profile", "gone"])
        #expect(gone.status == 69)
        #expect(try await tool.store.load(key: "gone") == unreachable)

        // A revoked grant: 77, saved, and no further request.
        let state = try #require(try await tool.store.load(key: "default"))
        try await AuthorizationServerClient(transport: TestServer.transport).revoke(
            #require(RevocationRequest(revoking: state)))
        var expired = state
        expired.accessTokenExpiresAt = Date(timeIntervalSince1970: 0)
        try await tool.store.save(expired, key: "default")
        let revoked = try await tool.run(["token"])
        #expect(revoked.status == 77)
        #expect(revoked.stderr.contains("bearer login"))
        #expect(try await tool.store.load(key: "default")?.signInRequired == true)
        let status = try await tool.run(["status", "--json"])
        let object = try JSONDecoder().decode([String: JSONValue].self, from: status.stdout)
        #expect(object["sign_in_required"] == true)
        #expect(object["needs_reauthentication"] == true)
    }

    @Test("8 concurrent bearer token processes on an expired session: one refresh, all succeed")
    func concurrentTokenProcesses() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        #expect(try await login(tool).status == 0)
        var state = try #require(try await tool.store.load(key: "default"))
        state.accessTokenExpiresAt = Date(timeIntervalSince1970: 0)
        try await tool.store.save(state, key: "default")
        let before = try await TestServer.tokenRequests(client: client, grantType: "refresh_token")
        let processes = try (0..<8).map { _ in try tool.start(["token"]) }
        var tokens: Set<String> = []
        for process in processes {
            let result = await process.finish()
            #expect(result.status == 0, "\(result.stderr)")
            tokens.insert(result.output)
        }
        #expect(tokens.count == 1, "every process printed the same fresh token")
        #expect(try await TestServer.tokenRequests(client: client, grantType: "refresh_token") == before + 1)
        #expect(try await tool.store.load(key: "default")?.refreshToken != state.refreshToken)
    }
}
