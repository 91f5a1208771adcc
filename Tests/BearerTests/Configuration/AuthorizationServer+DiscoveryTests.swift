import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Bridge) @_spi(CommandLine) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Configuration and discovery")
struct ConfigurationTests {
    @Test("A Google iOS client redirects to the reversed client ID with one slash")
    func googleiOSRedirect() throws {
        let client = try Client.googleiOS(clientID: "123-abc.apps.googleusercontent.com")
        #expect(client.redirectURI?.absoluteString == "com.googleusercontent.apps.123-abc:/oauth2callback")
        #expect(client.id == "123-abc.apps.googleusercontent.com")
        #expect(client.secret == nil)
        #expect(throws: BearerError.self) { try Client.googleiOS(clientID: "") }
        #expect(throws: BearerError.self) { try Client.googleiOS(clientID: "bad id.apps") }
    }

    @Test("A Google iOS client's scheme is lowercased, so a client ID in any case gives one redirect URI")
    func googleiOSRedirectIsLowercased() throws {
        let upper = try Client.googleiOS(clientID: "123-ABC.apps.googleusercontent.com")
        let lower = try Client.googleiOS(clientID: "123-abc.apps.googleusercontent.com")
        #expect(upper.redirectURI?.absoluteString == "com.googleusercontent.apps.123-abc:/oauth2callback")
        #expect(upper.redirectURI == lower.redirectURI)
        #expect(upper.id == "123-ABC.apps.googleusercontent.com")
    }

    @Test("An unusable optional endpoint is left out; the rest of the document is used")
    func discoveryDropsUnusableOptionalEndpoints() throws {
        let issuer = "https://id.example.com"
        let document = """
            {"issuer":"\(issuer)","authorization_endpoint":"\(issuer)/authorize","token_endpoint":"\(issuer)/token",
            "revocation_endpoint":"http://id.example.com/revoke","userinfo_endpoint":42,
            "device_authorization_endpoint":"not a url"}
            """
        let server = try AuthorizationServer(metadata: Data(document.utf8), expectedIssuer: Fixtures.url(issuer))
        #expect(server.tokenEndpoint.absoluteString == "https://id.example.com/token")
        #expect(server.revocationEndpoint == nil)
        #expect(server.userinfoEndpoint == nil)
        #expect(server.deviceAuthorizationEndpoint == nil)
    }

    @Test("Required endpoints stay strict: missing, not a URL, or not https fails the document")
    func discoveryKeepsRequiredEndpointsStrict() {
        let issuer = "https://id.example.com"
        let cases = [
            #""token_endpoint":"\#(issuer)/token""#,
            #""authorization_endpoint":"http://id.example.com/a","token_endpoint":"\#(issuer)/token""#,
            #""authorization_endpoint":"\#(issuer)/a","token_endpoint":7"#,
        ]
        for fields in cases {
            let document = #"{"issuer":"\#(issuer)",\#(fields)}"#
            #expect(throws: BearerError.self, "\(fields)") {
                try AuthorizationServer(metadata: Data(document.utf8), expectedIssuer: Fixtures.url(issuer))
            }
        }
    }

    @Test("The Google preset holds Google's endpoints")
    func googlePreset() {
        let google = AuthorizationServer.google
        #expect(google.issuer.absoluteString == "https://accounts.google.com")
        #expect(google.authorizationEndpoint.absoluteString == "https://accounts.google.com/o/oauth2/v2/auth")
        #expect(google.tokenEndpoint.absoluteString == "https://oauth2.googleapis.com/token")
        #expect(google.revocationEndpoint?.absoluteString == "https://oauth2.googleapis.com/revoke")
        #expect(google.deviceAuthorizationEndpoint?.absoluteString == "https://oauth2.googleapis.com/device/code")
        #expect(google.userinfoEndpoint?.absoluteString == "https://openidconnect.googleapis.com/v1/userinfo")
    }

    @Test("Discovery reads the OpenID Connect document")
    func discoveryReadsOpenIDConfiguration() async throws {
        let transport = RecordingTransport(replies: [.json(200, Self.metadata(issuer: "https://id.example.com/tenant"))]
        )
        let server = try await AuthorizationServerClient(transport: transport).discover(
            issuer: Fixtures.url("https://id.example.com/tenant"))
        #expect(server.tokenEndpoint.absoluteString == "https://id.example.com/tenant/token")
        #expect(server.revocationEndpoint?.absoluteString == "https://id.example.com/tenant/revoke")
        #expect(server.sendsIssuerInAuthorizationResponse)
        let urls = await transport.requests.compactMap(\.url.absoluteString)
        #expect(urls == ["https://id.example.com/tenant/.well-known/openid-configuration"])
    }

    @Test("Discovery falls back to RFC 8414 metadata with the well-known path inserted before the issuer path")
    func discoveryFallsBackToRFC8414() async throws {
        let transport = RecordingTransport(replies: [
            .text(404, contentType: "text/html", "<h1>Not found</h1>"),
            .json(200, Self.metadata(issuer: "https://id.example.com/tenant")),
        ])
        let server = try await AuthorizationServerClient(transport: transport).discover(
            issuer: Fixtures.url("https://id.example.com/tenant"))
        #expect(server.authorizationEndpoint.absoluteString == "https://id.example.com/tenant/authorize")
        let urls = await transport.requests.compactMap(\.url.absoluteString)
        #expect(urls.last == "https://id.example.com/.well-known/oauth-authorization-server/tenant")
    }

    @Test("Discovery refuses a document naming another issuer")
    func discoveryRefusesOtherIssuer() async throws {
        let transport = RecordingTransport(replies: [.json(200, Self.metadata(issuer: "https://evil.example.com"))])
        let error = await #expect(throws: BearerError.self) {
            try await AuthorizationServerClient(transport: transport).discover(
                issuer: Fixtures.url("https://id.example.com"))
        }
        #expect(error?.kind == .issuerMismatch)
    }

    @Test("Discovery refuses a server without S256, an http issuer, and reports when nothing is found")
    func discoveryFailures() async throws {
        let noS256 = Self.metadata(issuer: "https://id.example.com").replacingOccurrences(
            of: "\"S256\"", with: "\"plain\"")
        let plain = RecordingTransport(replies: [.json(200, noS256)])
        let plainError = await #expect(throws: BearerError.self) {
            try await AuthorizationServerClient(transport: plain).discover(
                issuer: Fixtures.url("https://id.example.com"))
        }
        #expect(plainError?.kind == .invalidDiscoveryDocument)

        let insecure = await #expect(throws: BearerError.self) {
            try await AuthorizationServerClient(transport: RecordingTransport()).discover(
                issuer: Fixtures.url("http://id.example.com"))
        }
        #expect(insecure?.kind == .insecureEndpoint)

        let missing = RecordingTransport(replies: [
            .text(404, contentType: "text/plain", ""), .text(404, contentType: "text/plain", ""),
        ])
        let missingError = await #expect(throws: BearerError.self) {
            try await AuthorizationServerClient(transport: missing).discover(
                issuer: Fixtures.url("https://id.example.com"))
        }
        #expect(missingError?.kind == .invalidDiscoveryDocument)
    }

    @Test("Loopback http is refused unless allowed; other http always")
    func endpointSecurity() throws {
        #expect(throws: Never.self) {
            try EndpointSecurity.check(Fixtures.url("http://127.0.0.1:8000/o"), allowingInsecureLoopback: true)
        }
        #expect(throws: Never.self) {
            try EndpointSecurity.check(Fixtures.url("http://[::1]:8000/o"), allowingInsecureLoopback: true)
        }
        #expect(throws: BearerError.self) {
            try EndpointSecurity.check(Fixtures.url("http://127.0.0.1:8000/o"), allowingInsecureLoopback: false)
        }
        #expect(throws: BearerError.self) {
            try EndpointSecurity.check(Fixtures.url("http://127.example.com/o"), allowingInsecureLoopback: true)
        }
        #expect(throws: BearerError.self) {
            try EndpointSecurity.check(Fixtures.url("http://127.0.0.1.evil.com/o"), allowingInsecureLoopback: true)
        }
        #expect(EndpointSecurity.isLoopback(host: "127.255.0.1"))
        #expect(!EndpointSecurity.isLoopback(host: "127.0.0.256"))
    }

    static func metadata(issuer: String) -> String {
        """
        {"issuer":"\(issuer)","authorization_endpoint":"\(issuer)/authorize","token_endpoint":"\(issuer)/token",
        "revocation_endpoint":"\(issuer)/revoke","userinfo_endpoint":"\(issuer)/userinfo",
        "code_challenge_methods_supported":["S256"],"authorization_response_iss_parameter_supported":true,
        "response_types_supported":["code"]}
        """
    }
}
