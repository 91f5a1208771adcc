import Bearer
import Foundation
import Testing

@_spi(Migration) @_spi(Testing) @testable import BearerCore

@Suite("Authorization request")
struct AuthorizationRequestTests {
    private func query(_ url: URL) -> [(name: String, value: String)] {
        FormEncoding.decodePairs(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? "")
    }

    @Test("The URL carries every standard parameter, S256 and never plain")
    func standardParameters() throws {
        let request = try Fixtures.request()
        let parameters = Dictionary(query(request.url).map { ($0.name, $0.value) }) { first, _ in first }
        #expect(parameters["response_type"] == "code")
        #expect(parameters["client_id"] == "client-123")
        #expect(parameters["redirect_uri"] == "com.example.app:/oauth2callback")
        #expect(parameters["scope"] == "openid email drive.readonly")
        #expect(parameters["state"] == request.state)
        #expect(parameters["nonce"] == request.nonce)
        #expect(parameters["code_challenge"] == request.pkce.challenge)
        #expect(parameters["code_challenge_method"] == "S256")
        #expect(!request.url.absoluteString.contains(request.pkce.verifier))
        #expect(request.url.absoluteString.hasPrefix("https://auth.example.com/authorize?"))
    }

    @Test("State carries at least 128 random bits and differs between requests")
    func stateIsRandom() throws {
        let first = try Fixtures.request()
        let second = try Fixtures.request()
        #expect(first.state != second.state)
        #expect((Base64URL.decode(first.state)?.count ?? 0) * 8 >= 128)
        #expect(first.nonce != second.nonce)
    }

    @Test("A nonce is sent only when openid is requested")
    func nonceOnlyWithOpenID() throws {
        let request = try Fixtures.request(scopes: ["drive.readonly"])
        #expect(request.nonce == nil)
        #expect(!query(request.url).contains { $0.name == "nonce" })
    }

    @Test("Extra parameters are added, and one that would replace a standard parameter is refused")
    func extraParameters() throws {
        let request = try AuthorizationRequest(
            server: Fixtures.server,
            client: Fixtures.publicClient,
            scopes: ["email"],
            additionalParameters: [
                "login_hint": "a+b@example.com", "prompt": "consent", "include_granted_scopes": "true",
                "access_type": "offline",
            ]
        )
        let parameters = Dictionary(query(request.url).map { ($0.name, $0.value) }) { first, _ in first }
        #expect(parameters["login_hint"] == "a+b@example.com")
        #expect(request.url.absoluteString.contains("login_hint=a%2Bb%40example.com"))
        #expect(parameters["include_granted_scopes"] == "true")
        #expect(parameters["access_type"] == "offline")
        for name in ["state", "code_challenge_method", "redirect_uri", "client_id"] {
            let error = #expect(throws: BearerError.self) {
                try AuthorizationRequest(
                    server: Fixtures.server,
                    client: Fixtures.publicClient,
                    scopes: ["email"],
                    additionalParameters: [name: "x"]
                )
            }
            #expect(error?.kind == .invalidConfiguration)
        }
    }

    @Test("A query already on the endpoint is kept, less any standard parameter")
    func existingQueryKept() throws {
        var server = Fixtures.server
        server.authorizationEndpoint = Fixtures.url("https://auth.example.com/authorize?tenant=a%20b&state=evil")
        let request = try Fixtures.request(server: server)
        let pairs = query(request.url)
        #expect(pairs.first?.name == "tenant")
        #expect(pairs.first?.value == "a b")
        #expect(pairs.filter { $0.name == "state" }.map(\.value) == [request.state])
    }

    @Test("A pending request survives encoding, as after a process restart")
    func codableRoundTrip() throws {
        let request = try Fixtures.request()
        let decoded = try JSONDecoder().decode(AuthorizationRequest.self, from: JSONEncoder().encode(request))
        #expect(decoded == request)
        #expect(decoded.url == request.url)
    }

    @Test("An http authorization endpoint is refused; scopes with spaces are refused")
    func refusesBadConfiguration() throws {
        var server = Fixtures.server
        server.authorizationEndpoint = Fixtures.url("http://auth.example.com/authorize")
        #expect(throws: BearerError.self) { try Fixtures.request(server: server) }
        let error = #expect(throws: BearerError.self) { try Fixtures.request(scopes: ["a b"]) }
        #expect(error?.kind == .invalidScope)
    }
}
