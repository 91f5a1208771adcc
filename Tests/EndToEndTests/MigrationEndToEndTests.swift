import Bearer
import Foundation
import Testing

@_spi(CommandLine) @_spi(Migration) @testable import BearerCore

/// Each legacy format, written from a live grant, migrated by the `bearer` tool onto the local
/// server, and used to call its API: the imported session must refresh and authorize.
@Suite(
    "End to end: migrate every format onto the local server", .serialized,
    .enabled(if: TestServer.isConfigured, TestServer.skipReason))
struct MigrationEndToEndTests {
    /// A confidential client of its own, so that no other suite's token counters move.
    private let client = "bearer-migrate"
    private let secret = "bearer-migrate-test-secret"

    private func write(_ tool: BearerTool, _ name: String, _ contents: Data) throws -> String {
        try FileManager.default.createDirectory(
            at: tool.configDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let url = tool.configDirectory.appendingPathComponent(name)
        try contents.write(to: url)
        return url.path
    }

    /// The newest refresh token of `profile`, which the next legacy file must carry (the server
    /// rotates refresh tokens and revokes the grant when an old one is replayed).
    private func refreshToken(_ tool: BearerTool, _ profile: String) async throws -> String {
        try #require(try await tool.store.load(key: profile)?.refreshToken?.value)
    }

    @Test(
        "gcloud credentials, GoogleSignIn items, a GTMOAuth2 string and a GTMAppAuth archive each migrate and call the API"
    )
    func everyFormatCallsTheAPI() async throws {
        let tool = BearerTool()
        defer { tool.cleanUp() }
        let issuer = try TestServer.issuer.absoluteString
        let login = try await tool.run(
            [
                "login", "--issuer", issuer, "--allow-insecure-loopback", "--client-id", client,
                "--scope", "openid email drive.readonly", "--open-with", try Browser.command,
            ] + ["--client-secret-file", try write(tool, "secret", Data((secret + "\n").utf8))])
        #expect(login.status == 0, "\(login.stderr)")
        let secretFile = tool.configDirectory.appendingPathComponent("secret").path
        let api = try TestServer.url("/drive/v3/about?fields=user").absoluteString
        var previous = "default"

        // gcloud's application default credentials: Google's format, on another server with --issuer.
        let adc = try JSONSerialization.data(withJSONObject: [
            "type": "authorized_user", "client_id": client, "client_secret": secret,
            "refresh_token": try await refreshToken(tool, previous),
        ])
        let migrations: [(format: String, arguments: () async throws -> [String])] = [
            ("adc", { [try write(tool, "legacy-adc.input", adc), "--issuer", issuer] }),
            (
                "googlesignin",
                {
                    let fingerprint = "com.example.bearer-\(client)-email profile"
                    let persistence =
                        "refresh_token=\(try await refreshToken(tool, previous))&scope=openid%20email%20drive.readonly"
                    let items = [
                        "fingerprint": fingerprint, fingerprint: persistence, "bundle_id": "com.example.bearer",
                    ]
                    let file = try write(tool, "legacy-googlesignin.input", try JSONEncoder().encode(items))
                    return [file, "--issuer", issuer, "--client-secret-file", secretFile]
                }
            ),
            (
                "gtmoauth2",
                {
                    let exported = try await tool.run(["export", "--format", "gtmoauth2", "--profile", previous])
                    let file = try write(tool, "legacy-gtmoauth2.input", exported.stdout)
                    return [file, "--issuer", issuer, "--client-id", client, "--client-secret-file", secretFile]
                }
            ),
            (
                "gtmappauth",
                {
                    let file = tool.configDirectory.appendingPathComponent("legacy-gtmappauth.input").path
                    let exported = try await tool.run([
                        "export", "--format", "gtmappauth", "--profile", previous, "--output", file,
                    ])
                    #expect(exported.status == 0, "\(exported.stderr)")
                    return [file]
                }
            ),
        ]
        for (format, arguments) in migrations {
            let migrated = try await tool.run(
                ["migrate", "--from", format, "--profile", format, "--allow-insecure-loopback"] + arguments())
            #expect(migrated.status == 0, "\(format): \(migrated.stderr)")
            let state = try #require(try await tool.store.load(key: format))
            #expect(state.server.issuer.absoluteString == issuer, "\(format)")
            #expect(!state.server.isGoogle, "\(format)")
            let call = try await tool.run(["curl", api, "--profile", format])
            #expect(call.status == 0, "\(format): \(call.stderr)")
            #expect(String(decoding: call.stdout, as: UTF8.self).contains("alice@example.com"), "\(format)")
            previous = format
        }
    }
}
