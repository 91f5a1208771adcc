import Bearer
import Foundation
import Testing

@_spi(Bridge) @_spi(CommandLine) @_spi(Migration) @testable import BearerCore

@Suite("Recognising Google")
struct GoogleServerTests {
    @Test(
        "googleapis.com, its subdomains and accounts.google.com are Google hosts, in any case and fully qualified",
        arguments: [
            "googleapis.com", "oauth2.googleapis.com", "OAUTH2.GoogleAPIs.com", "oauth2.googleapis.com.",
            "a.b.googleapis.com", "accounts.google.com", "Accounts.Google.Com.",
        ])
    func googleHosts(host: String) {
        #expect(AuthorizationServer.isGoogleHost(host))
    }

    @Test(
        "Hosts that only end with the same letters, or put Google's name first, are not Google hosts",
        arguments: [
            "evilgoogleapis.com", "oauth2.evilgoogleapis.com", "googleapis.com.evil.example", "googleapis.co",
            ".googleapis.com", "x..googleapis.com", "googleapis.com..", "google.com", "evilaccounts.google.com",
            "", "example.com",
        ])
    func otherHosts(host: String) {
        #expect(!AuthorizationServer.isGoogleHost(host))
    }

    @Test("A missing host is not a Google host")
    func missingHost() {
        #expect(!AuthorizationServer.isGoogleHost(nil))
        #expect(!EndpointSecurity.host(nil, isWithin: "googleapis.com"))
    }

    @Test("A domain is matched at a label boundary whatever its own case or trailing dot")
    func hostWithinDomain() {
        #expect(EndpointSecurity.host("api.example.com", isWithin: "Example.COM."))
        #expect(EndpointSecurity.host("example.com", isWithin: "example.com"))
        #expect(!EndpointSecurity.host("badexample.com", isWithin: "example.com"))
        #expect(!EndpointSecurity.host("example.com", isWithin: ""))
        #expect(!EndpointSecurity.host("example.com", isWithin: "."))
    }

    @Test("A server is Google when its issuer is Google's, whatever its endpoints")
    func isGoogleByIssuer() throws {
        #expect(AuthorizationServer.google.isGoogle)
        var custom = AuthorizationServer.google
        custom.tokenEndpoint = try #require(URL(string: "https://token.example.com/token"))
        #expect(custom.isGoogle, "the issuer decides")
        let other = AuthorizationServer(
            issuer: try #require(URL(string: "https://id.example.com")),
            authorizationEndpoint: AuthorizationServer.google.authorizationEndpoint,
            tokenEndpoint: AuthorizationServer.google.tokenEndpoint
        )
        #expect(!other.isGoogle)
    }
}
