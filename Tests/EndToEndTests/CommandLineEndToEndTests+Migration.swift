import Bearer
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The tool's migrate and export commands, against the real server.
extension CommandLineEndToEndTests {
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
