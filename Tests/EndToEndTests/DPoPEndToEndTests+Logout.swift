import Bearer
import Foundation
import Testing

@_spi(Testing) @testable import BearerCore

extension DPoPEndToEndTests {
    /// The tool's `logout --at-provider` at the stock glewlwyd's `oidclogout` instance
    /// (Server/glewlwyd/README.md), run as users run it, with a browser that keeps its cookies.
    @Suite("logout at the provider with the tool, at glewlwyd")
    struct ProviderLogout {
        static let port: UInt16 = 18186

        @Test(
            """
            login, then logout --at-provider: the session is removed and the provider's session ended, so the next \
            login in the same browser gets a new provider session; no ID token is printed
            """)
        func tool() async throws {
            let tool = BearerTool()
            defer { tool.cleanUp() }
            try FileManager.default.createDirectory(at: tool.configDirectory, withIntermediateDirectories: true)
            let browser = "\(try Browser.command) --cookie-jar '\(tool.configDirectory.path)/browser-cookies.json'"
            let login = [
                "login", "--issuer", try Glewlwyd.url("/api/oidclogout").absoluteString, "--allow-insecure-loopback",
                "--client-id", "bearer-logout", "--scope", "openid email", "--port", String(Self.port),
                "--open-with", browser,
            ]
            let first = try await tool.run(login)
            try #require(first.status == 0, "login failed: \(first.stderr)")
            let signedIn = try #require(try await tool.store.load(key: "default"))
            let sid = try #require(signedIn.providerSessionID, "the ID token's sid is saved with the session")

            let logout = try await tool.run(["logout", "--at-provider", "--open-with", browser])
            // glewlwyd's instance offers no revocation endpoint: the local session goes unrevoked,
            // which the tool's exit code says, as plain `logout` does.
            #expect(logout.status == 1, "\(logout.stderr)")
            #expect(logout.stderr.contains("offers no revocation"))
            #expect(logout.stderr.contains("Signed out at 127.0.0.1 too"), "\(logout.stderr)")
            #expect(try await tool.store.load(key: "default") == nil)
            for output in [first.stderr, logout.stderr] {
                #expect(!output.contains(signedIn.idToken?.value ?? "-"), "no ID token is printed")
                #expect(!output.contains(signedIn.refreshToken?.value ?? "-"), "no refresh token is printed")
            }

            let again = try await tool.run(login)
            try #require(again.status == 0, "login failed: \(again.stderr)")
            let next = try #require(try await tool.store.load(key: "default")?.providerSessionID)
            #expect(next != sid, "the browser's provider session ended; a new one began")
        }
    }
}
