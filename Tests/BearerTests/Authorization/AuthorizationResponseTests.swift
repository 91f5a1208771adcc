import Bearer
import Foundation
import Testing

@testable import BearerCore

@Suite("Redirect parsing")
struct AuthorizationResponseTests {
    private let client = Client(
        id: "1234-tepulg5joaks7.apps.example.com", redirectURI: Fixtures.url("com.example.apps.1234-tepulg5joaks7:/"))

    private func request(sendsIssuer: Bool = false) throws -> AuthorizationRequest {
        var server = Fixtures.server
        server.sendsIssuerInAuthorizationResponse = sendsIssuer
        return try AuthorizationRequest(server: server, client: client, scopes: ["email"])
    }

    private func kind(of body: () throws -> Void) -> BearerError.Kind? {
        do {
            try body()
            return nil
        } catch let error as BearerError {
            return error.kind
        } catch {
            return nil
        }
    }

    @Test("A Google-style redirect yields the code and keeps the other parameters")
    func parsesGoogleStyleRedirect() throws {
        let request = try request()
        let redirect = Fixtures.url(
            "com.example.apps.1234-tepulg5joaks7:/?state=\(request.state)&code=4/WQAstm4iiN_0Qi-n4mEo-jL-85CvQ&authuser=0&prompt=consent#"
        )
        let response = try AuthorizationResponse(redirect: redirect, for: request)
        #expect(response.code.value == "4/WQAstm4iiN_0Qi-n4mEo-jL-85CvQ")
        #expect(response.additionalParameters == ["authuser": "0", "prompt": "consent"])
        #expect(response.issuer == nil)
    }

    @Test("The published example is refused for its state, which this request did not send")
    func publishedExampleWithForeignState() throws {
        let redirect = Fixtures.url(
            "com.example.apps.1234-tepulg5joaks7:/?state=z634l182&code=4/WQAstm4iiN_0Qi-n4mEo-jL-85CvQ&authuser=0&prompt=consent#"
        )
        let request = try request()
        #expect(kind { _ = try AuthorizationResponse(redirect: redirect, for: request) } == .invalidRedirect)
    }

    @Test(
        "The scheme compares case-insensitively; host, port and path exactly",
        arguments: [
            ("COM.EXAMPLE.APPS.1234-tepulg5joaks7:/", true),
            ("com.example.apps.1234-tepulg5joaks7:/other", false),
            ("com.example.apps.1234-tepulg5joaks8:/", false),
            ("https://example.com/", false),
        ])
    func redirectMatching(base: String, matches: Bool) throws {
        let request = try request()
        let redirect = Fixtures.url(base + "?state=\(request.state)&code=abc")
        let result = kind { _ = try AuthorizationResponse(redirect: redirect, for: request) }
        #expect(result == (matches ? nil : .invalidRedirect))
    }

    @Test("Loopback redirects compare host and port")
    func loopbackPort() throws {
        let loopback = Client(id: "tool", redirectURI: Fixtures.url("http://127.0.0.1/callback"))
        let request = try AuthorizationRequest(
            server: Fixtures.server,
            client: loopback,
            scopes: ["email"],
            redirectURI: Fixtures.url("http://127.0.0.1:49152/callback")
        )
        let good = Fixtures.url("http://127.0.0.1:49152/callback?state=\(request.state)&code=c")
        #expect(try AuthorizationResponse(redirect: good, for: request).code.value == "c")
        let otherPort = Fixtures.url("http://127.0.0.1:49153/callback?state=\(request.state)&code=c")
        #expect(kind { _ = try AuthorizationResponse(redirect: otherPort, for: request) } == .invalidRedirect)
    }

    @Test("An error redirect with the request's state becomes an OAuthError")
    func errorWithState() throws {
        let request = try request()
        let redirect = Fixtures.url(
            "com.example.apps.1234-tepulg5joaks7:/?error=access_denied&error_description=The+user+said+no&error_uri=https%3A%2F%2Fexample.com%2Fe&state=\(request.state)"
        )
        let error = #expect(throws: OAuthError.self) { try AuthorizationResponse(redirect: redirect, for: request) }
        #expect(error?.code == .accessDenied)
        #expect(error?.errorDescription == "The user said no")
        #expect(error?.errorURI == "https://example.com/e")
        #expect(error?.statusCode == nil)
    }

    @Test("A forged error redirect (wrong state, or another issuer) is refused before its error is read")
    func forgedErrorIsRefused() throws {
        let request = try request()
        let wrongState = Fixtures.url("com.example.apps.1234-tepulg5joaks7:/?error=access_denied&state=wrong")
        #expect(kind { _ = try AuthorizationResponse(redirect: wrongState, for: request) } == .invalidRedirect)
        let noState = Fixtures.url("com.example.apps.1234-tepulg5joaks7:/?error=access_denied")
        #expect(kind { _ = try AuthorizationResponse(redirect: noState, for: request) } == .invalidRedirect)
        let otherIssuer = Fixtures.url(
            "com.example.apps.1234-tepulg5joaks7:/?error=access_denied&state=\(request.state)&iss=https%3A%2F%2Fevil")
        #expect(kind { _ = try AuthorizationResponse(redirect: otherIssuer, for: request) } == .issuerMismatch)
    }

    @Test("A mismatched redirect fails before its error is read")
    func redirectBeforeError() throws {
        let request = try request()
        let redirect = Fixtures.url("com.evil:/?error=access_denied")
        #expect(kind { _ = try AuthorizationResponse(redirect: redirect, for: request) } == .invalidRedirect)
    }

    @Test("Missing or tampered state is refused before the issuer and code are looked at")
    func stateChecks() throws {
        let request = try request()
        for query in [
            "code=abc", "state=&code=abc", "state=\(request.state)x&code=abc", "state=x&iss=https%3A%2F%2Fevil",
        ] {
            let redirect = Fixtures.url("com.example.apps.1234-tepulg5joaks7:/?" + query)
            #expect(
                kind { _ = try AuthorizationResponse(redirect: redirect, for: request) } == .invalidRedirect, "\(query)"
            )
        }
    }

    @Test("A different iss is refused (RFC 9207), even with a valid code")
    func issuerMismatch() throws {
        let request = try request()
        let redirect = Fixtures.url(
            "com.example.apps.1234-tepulg5joaks7:/?state=\(request.state)&code=abc&iss=https%3A%2F%2Fevil.example.com"
        )
        #expect(kind { _ = try AuthorizationResponse(redirect: redirect, for: request) } == .issuerMismatch)
    }

    @Test("A matching iss is accepted; a missing one is refused when the server promised it")
    func issuerPresence() throws {
        let promised = try request(sendsIssuer: true)
        let withIssuer = Fixtures.url(
            "com.example.apps.1234-tepulg5joaks7:/?state=\(promised.state)&code=abc&iss=https%3A%2F%2Fauth.example.com"
        )
        #expect(try AuthorizationResponse(redirect: withIssuer, for: promised).issuer == Fixtures.issuer)
        let withoutIssuer = Fixtures.url("com.example.apps.1234-tepulg5joaks7:/?state=\(promised.state)&code=abc")
        #expect(kind { _ = try AuthorizationResponse(redirect: withoutIssuer, for: promised) } == .invalidRedirect)
    }

    @Test("A missing or empty code is refused")
    func codeChecks() throws {
        let request = try request()
        for query in ["state=\(request.state)", "state=\(request.state)&code="] {
            let redirect = Fixtures.url("com.example.apps.1234-tepulg5joaks7:/?" + query)
            #expect(
                kind { _ = try AuthorizationResponse(redirect: redirect, for: request) } == .invalidRedirect)
        }
    }

    @Test("A repeated parameter is refused")
    func repeatedParameter() throws {
        let request = try request()
        let redirect = Fixtures.url("com.example.apps.1234-tepulg5joaks7:/?state=\(request.state)&code=a&code=b")
        #expect(kind { _ = try AuthorizationResponse(redirect: redirect, for: request) } == .invalidRedirect)
    }
}
