import Bearer
import Foundation
import Testing

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
    private let client = "bearer-cli"

    private func issuer() throws -> String {
        try TestServer.issuer.absoluteString
    }

    private func login(
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
    private func secrets(_ tool: BearerTool, profile: String = "default") async throws -> [String] {
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
                    "profile", "email", "sub", "scopes", "expires_at", "sign_in_required", "issuer", "client_id",
                    "session_file",
                ]
        )
        #expect(object["email"] == "alice@example.com")
        #expect(object["sign_in_required"] == false)
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
        let overwrite = try await tool.run(["migrate", "--from", "adc", garbage.path])
        #expect(overwrite.status == 64)
        #expect(overwrite.stderr.contains("--force"))

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
        try await #require(RevocationRequest(revoking: state)).send(using: TestServer.transport)
        var expired = state
        expired.accessTokenExpiresAt = Date(timeIntervalSince1970: 0)
        try await tool.store.save(expired, key: "default")
        let revoked = try await tool.run(["token"])
        #expect(revoked.status == 77)
        #expect(revoked.stderr.contains("bearer login"))
        #expect(try await tool.store.load(key: "default")?.signInRequired == true)
        let status = try await tool.run(["status", "--json"])
        #expect(
            try JSONDecoder().decode([String: JSONValue].self, from: status.stdout)["sign_in_required"] == true)
    }

    @Test("The listener ignores other paths, answers POST with 400, survives a hang-up, then takes the redirect")
    func listenerEdgeCases() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        let running = try tool.start([
            "login", "--issuer", try issuer(), "--allow-insecure-loopback", "--client-id", client, "--scope",
            "openid email",
            "--no-open", "--timeout", "60",
        ])
        let text = try await running.waitForStderr(containing: "press Ctrl-C")
        let authorizeURL = try #require(
            text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("http") }
        )
        let callback = try #require(
            text.firstMatch(of: /(http:\/\/127\.0\.0\.1:\d+)\/callback/).map { String($0.output.1) }
        )

        let favicon = try await TestServer.transport.send(
            URLRequest(url: try #require(URL(string: callback + "/favicon.ico"))))
        #expect(favicon.1.statusCode == 404)
        var post = URLRequest(url: try #require(URL(string: callback + "/callback?code=x&state=y")))
        post.httpMethod = "POST"
        #expect(try await TestServer.transport.send(post).1.statusCode == 400)
        try RawConnection.connectAndHangUp(to: callback)

        let page = try await Browser.authorizeAsAlice(authorizeURL)
        #expect(page.contains("close this tab"))
        #expect(!page.contains("code"))
        let result = await running.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Signed in as alice@example.com"))
    }

    @Test("The listener gives up after --timeout with a clear message")
    func listenerTimeout() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        let result = try await tool.run([
            "login", "--issuer", try issuer(), "--allow-insecure-loopback", "--client-id", client, "--scope", "email",
            "--no-open", "--timeout", "1",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("No answer came from the browser in time"))
        #expect(try await tool.store.load(key: "default") == nil)
    }

    @Test("An http issuer is refused without --allow-insecure-loopback")
    func insecureIssuerRefused() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        let result = try await tool.run(["login", "--issuer", try issuer(), "--client-id", client, "--scope", "email"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--allow-insecure-loopback"))
    }

    @Test("The device flow: code printed, approved with form posts, session saved; denial is reported")
    func deviceFlow() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        for approve in [true, false] {
            let running = try tool.start([
                "login", "--device", "--issuer", try issuer(), "--allow-insecure-loopback", "--client-id",
                "bearer-device",
                "--scope", "openid email drive.readonly", "--no-open",
            ])
            let text = try await running.waitForStderr(containing: "enter the code")
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let index = try #require(lines.firstIndex { $0.contains("enter the code") })
            let userCode = try #require(lines.dropFirst(index + 1).first)
            _ = try await running.waitForStderr(containing: "Waiting for approval")
            try await Browser.approveDevice(userCode: userCode, approve: approve)
            let result = await running.finish()
            if approve {
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stderr.contains("Signed in as alice@example.com"))
                let token = try await tool.run(["token"])
                #expect(token.status == 0)
            } else {
                #expect(result.status == 1)
                #expect(result.stderr.contains("access_denied"))
            }
        }
    }

    @Test("add-scopes upgrades the session through the browser; asking again is a no-op")
    func addScopes() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        #expect(try await login(tool, scope: "openid email").status == 0)
        let add = try await tool.run(["add-scopes", "drive.readonly", "--open-with", try Browser.command])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stderr.contains("include_granted_scopes=true"))
        #expect(add.stderr.contains("login_hint=alice%40example.com"))
        let curl = try await tool.run(["curl", try TestServer.url("/drive/v3/about?fields=user").absoluteString])
        #expect(curl.status == 0)
        let again = try await tool.run(["add-scopes", "email", "drive.readonly"])
        #expect(again.status == 0)
        #expect(again.stderr.contains("already granted"))
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

    @Test("migrate and export: a session exported in either legacy format imports onto the loopback server and works")
    func migrateRoundTrip() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        #expect(try await login(tool).status == 0)
        for (format, exportFormat) in [("gtmoauth2", "gtmoauth2"), ("gtmappauth", "gtmappauth")] {
            let exported = try await tool.run(["export", "--format", exportFormat])
            let file = tool.configDirectory.appendingPathComponent("exported-\(format)")
            try exported.stdout.write(to: file)
            var arguments = ["migrate", "--from", format, file.path, "--profile", format, "--allow-insecure-loopback"]
            if format == "gtmoauth2" { arguments += ["--issuer", try issuer(), "--client-id", client] }
            let migrated = try await tool.run(arguments)
            #expect(migrated.status == 0, "\(format): \(migrated.stderr)")
            #expect(FileManager.default.fileExists(atPath: file.path), "the legacy file is left in place")
            let token = try await tool.run(["token", "--profile", format])
            #expect(token.status == 0, "\(format): \(token.stderr)")
            // The import refreshed with the grant's refresh token, which rotated: keep the default
            // profile on the newest one before the next export.
            let rotated = try #require(try await tool.store.load(key: format))
            var current = try #require(try await tool.store.load(key: "default"))
            current.refreshToken = rotated.refreshToken
            try await tool.store.save(current, key: "default")
            let again = try await tool.run(arguments)
            #expect(again.status == 64)
            #expect(again.stderr.contains("--force"))
            #expect(try await tool.run(arguments + ["--force"]).status == 0)
        }
    }

    @Test("migrate reads gcloud credentials and GoogleSignIn items, and status shows them without tokens")
    func migrateGoogleFormats() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("BearerMigrationTests/Fixtures")
        let adc = try await tool.run([
            "migrate", "--from", "adc", fixtures.appendingPathComponent("adc-authorized-user.json").path,
        ])
        #expect(adc.status == 0, "\(adc.stderr)")
        let text = { (name: String) throws -> String in
            String(decoding: try Data(contentsOf: fixtures.appendingPathComponent(name)), as: UTF8.self)
        }
        let fingerprint = try text("googlesignin-fingerprint.txt")
        let items = [
            "fingerprint": fingerprint,
            fingerprint: try text("googlesignin-persistence.txt"),
            fingerprint + "~~atrp": try text("googlesignin-atrp.txt"),
        ]
        let export = tool.configDirectory.appendingPathComponent("googlesignin.json")
        try JSONEncoder().encode(items).write(to: export)
        let signIn = try await tool.run(["migrate", "--from", "googlesignin", export.path, "--profile", "gsi"])
        #expect(signIn.status == 0, "\(signIn.stderr)")
        let status = try await tool.run(["status", "--profile", "gsi", "--json"])
        let object = try JSONDecoder().decode([String: JSONValue].self, from: status.stdout)
        #expect(object["email"] == "fixture.user@example.com")
        #expect(object["issuer"] == "https://accounts.google.com")
        #expect(object["expires_at"] == .null)
        #expect(!status.output.contains("fixture-refresh-token") && !status.output.contains("fixture-access-token"))
    }
}

/// Opens a TCP connection to a loopback URL's port and closes it without sending anything.
enum RawConnection {
    static func connectAndHangUp(to base: String) throws {
        let url = try #require(URL(string: base))
        let port = try #require(url.port)
        #if canImport(Darwin)
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #expect(connected == 0)
    }
}
