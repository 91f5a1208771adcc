import Bearer
import BearerCommandLine
import BearerTestSupport
import Foundation
import Testing

@_spi(Bridge) @_spi(Migration) @testable import BearerCore

@Suite("The bearer tool's commands, with a fake transport")
struct CommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-cmd-\(UUID().uuidString)")

    private func environment(_ transport: RecordingTransport, _ capture: Capture) -> CommandEnvironment {
        CommandEnvironment(
            variables: ["BEARER_CONFIG_DIR": folder.path],
            console: capture.console,
            transport: transport,
            clock: .fixed(Date(timeIntervalSince1970: 1_800_000_000))
        )
    }

    private func save(_ state: AuthState, profile: String = "default") async throws {
        try await FileSessionStore(directory: folder).save(state, key: profile)
    }

    private func session(expiresAt: Date) throws -> AuthState {
        guard let issuer = URL(string: "https://auth.example.com"),
            let token = URL(string: "https://auth.example.com/token"),
            let redirect = URL(string: "http://127.0.0.1/callback")
        else { throw BearerError.invalidConfiguration("test setup") }
        return AuthState(
            server: AuthorizationServer(issuer: issuer, authorizationEndpoint: issuer, tokenEndpoint: token),
            client: Client(id: "tool", redirectURI: redirect),
            accessToken: AccessToken("cli-access-token"),
            accessTokenExpiresAt: expiresAt,
            refreshToken: RefreshToken("cli-refresh-token"),
            grantedScopes: ["email"],
            user: AuthState.User(subject: "7", email: "user@example.com")
        )
    }

    @Test("token prints only the token; an expired one is refreshed and saved first")
    func tokenRefreshes() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await save(try session(expiresAt: Date(timeIntervalSince1970: 1_700_000_000)))
        let transport = RecordingTransport(replies: [
            .json(
                200,
                #"{"access_token":"cli-access-2","token_type":"Bearer","expires_in":3600,"refresh_token":"cli-refresh-2"}"#
            )
        ])
        let capture = Capture()
        let status = await BearerCommandLine.run(["token"], environment: environment(transport, capture))
        #expect(status == 0)
        #expect(capture.stdout == "cli-access-2\n")
        #expect(capture.stderr.isEmpty)
        #expect(
            try await FileSessionStore(directory: folder).load(key: "default")?.refreshToken?.value == "cli-refresh-2")
    }

    @Test("status prints a server-supplied e-mail and scopes without control characters")
    func statusIsPrintable() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var state = try session(expiresAt: Date(timeIntervalSince1970: 1_900_000_000))
        state.user = AuthState.User(subject: "7\u{1B}[2J", email: "user@example.com\u{1B}]0;owned\u{07}")
        try await save(state)
        let capture = Capture()
        let status = await BearerCommandLine.run(["status"], environment: environment(RecordingTransport(), capture))
        #expect(status == 0)
        #expect(capture.stdout.contains("user@example.com]0;owned (sub 7[2J)"))
        #expect(!capture.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test("A server's error description reaches the terminal without control characters")
    func errorDescriptionIsPrintable() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await save(try session(expiresAt: Date(timeIntervalSince1970: 1_700_000_000)))
        let transport = RecordingTransport(replies: [
            .json(400, #"{"error":"invalid_grant","error_description":"\u001b[2J\u001b]0;owned\u0007gone\u202e"}"#)
        ])
        let capture = Capture()
        let status = await BearerCommandLine.run(["token"], environment: environment(transport, capture))
        #expect(status == 77)
        #expect(capture.stderr.contains("[2J]0;ownedgone"))
        #expect(!capture.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(!capture.stderr.unicodeScalars.contains { $0.value == 0x7F || $0.value == 0x202E })
    }

    @Test(
        "A failing refresh maps to the documented exit codes without printing a token",
        arguments: [
            (RecordingTransport.Reply.json(400, #"{"error":"invalid_grant"}"#), Int32(77)),
            (RecordingTransport.Reply.failure(.cannotConnectToHost), Int32(69)),
            (RecordingTransport.Reply.text(503, contentType: "text/html", "<h1>down</h1>"), Int32(69)),
            (RecordingTransport.Reply.json(401, #"{"error":"invalid_client"}"#), Int32(1)),
            (RecordingTransport.Reply.text(200, contentType: "text/html", "<h1>portal</h1>"), Int32(1)),
        ])
    func refreshFailures(reply: RecordingTransport.Reply, expected: Int32) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await save(try session(expiresAt: Date(timeIntervalSince1970: 1_700_000_000)))
        let capture = Capture()
        let status = await BearerCommandLine.run(
            ["token"], environment: environment(RecordingTransport(replies: [reply]), capture))
        #expect(status == expected, "\(capture.stderr)")
        #expect(capture.stdout.isEmpty)
        #expect(capture.stderr.hasPrefix("bearer: "))
        #expect(capture.stderr.split(separator: "\n").count == 1)
        #expect(!capture.stderr.contains("cli-access-token") && !capture.stderr.contains("cli-refresh-token"))
    }

    @Test("status never shows a token, in either form")
    func statusHasNoToken() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await save(try session(expiresAt: Date(timeIntervalSince1970: 1_800_003_600)))
        for arguments in [["status"], ["status", "--json"]] {
            let capture = Capture()
            #expect(
                await BearerCommandLine.run(arguments, environment: environment(RecordingTransport(), capture)) == 0)
            #expect(capture.stdout.contains("user@example.com"))
            #expect(capture.stdout.contains("2027-01-15T09:00:00Z"))
            #expect(!capture.stdout.contains("cli-access-token") && !capture.stdout.contains("cli-refresh-token"))
        }
    }

    @Test("Sessions live in BEARER_CONFIG_DIR, else XDG_CONFIG_HOME/bearer, else ~/.config/bearer")
    func configFolder() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a").path
        let b = folder.appendingPathComponent("b").path
        let c = folder.appendingPathComponent("c").path
        for (variables, expected) in [
            (["BEARER_CONFIG_DIR": a, "XDG_CONFIG_HOME": b, "HOME": c], a),
            (["XDG_CONFIG_HOME": b, "HOME": c], b + "/bearer"),
            (["HOME": c], c + "/.config/bearer"),
        ] {
            try await FileSessionStore(directory: URL(fileURLWithPath: expected)).save(
                try session(expiresAt: Date(timeIntervalSince1970: 1_800_003_600)),
                key: "where"
            )
            let capture = Capture()
            let environment = CommandEnvironment(
                variables: variables, console: capture.console, transport: RecordingTransport())
            #expect(
                await BearerCommandLine.run(["status", "--json", "--profile", "where"], environment: environment) == 0)
            #expect(capture.stdout.contains("\"session_file\":\"\(expected)/where.json\""), "\(capture.stdout)")
            try FileManager.default.removeItem(atPath: expected + "/where.json")
        }
    }
}
