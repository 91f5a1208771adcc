import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Bridge) @_spi(Migration) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Token requests")
struct TokenRequestTests {
    @Test("A code exchange posts the code, verifier, redirect URI and client ID, form-encoded")
    func codeExchangeBody() throws {
        let request = try Fixtures.request()
        let code = "4/0Ab+c d/e="
        let redirect = Fixtures.redirect(
            for: request, query: "state=\(request.state)&code=\(FormEncoding.encode(code))")
        let response = try AuthorizationResponse(redirect: redirect, for: request)
        let urlRequest = TokenRequest.authorizationCode(response, for: request).transportRequest
        #expect(urlRequest.method.rawValue == "POST")
        #expect(urlRequest.url.absoluteString == "https://auth.example.com/token")
        #expect(urlRequest.headerFields["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(urlRequest.headerFields["Authorization"] == nil)
        let body = String(decoding: urlRequest.body ?? Data(), as: UTF8.self)
        #expect(body.contains("code=4%2F0Ab%2Bc+d%2Fe%3D"))
        #expect(
            urlRequest.formBody == [
                "grant_type": "authorization_code",
                "code": code,
                "redirect_uri": "com.example.app:/oauth2callback",
                "code_verifier": request.pkce.verifier,
                "client_id": "client-123",
            ])
    }

    @Test("A client with a secret uses HTTP Basic with id and secret form-encoded first (RFC 6749 §2.3.1)")
    func clientSecretBasic() {
        let request = TokenRequest.refresh(
            RefreshToken("r"),
            server: Fixtures.server,
            client: Fixtures.confidentialClient
        ).transportRequest
        let expected = Data("client%3Awith%26odd+chars:s3cret%2B%2F%3D%3A".utf8).base64EncodedString()
        #expect(request.headerFields["Authorization"] == "Basic " + expected)
        #expect(request.formBody["client_id"] == nil)
        #expect(request.formBody["client_secret"] == nil)
    }

    @Test("A refresh can ask for a narrower scope and extra parameters, which cannot replace standard ones")
    func refreshBody() {
        let request = TokenRequest.refresh(
            RefreshToken("refresh+token"),
            server: Fixtures.server,
            client: Fixtures.publicClient,
            scopes: ["email", "profile"],
            additionalParameters: ["audience": "api", "grant_type": "password"]
        ).transportRequest
        #expect(
            request.formBody == [
                "grant_type": "refresh_token",
                "refresh_token": "refresh+token",
                "scope": "email profile",
                "audience": "api",
                "client_id": "client-123",
            ])
    }

    @Test("Sending to an http token endpoint is refused without a request")
    func refusesInsecureTokenEndpoint() async throws {
        var server = Fixtures.server
        server.tokenEndpoint = Fixtures.url("http://auth.example.com/token")
        let transport = RecordingTransport()
        let error = await #expect(throws: BearerError.self) {
            try await AuthorizationServerClient(transport: transport).token(
                TokenRequest.refresh(RefreshToken("r"), server: server, client: Fixtures.publicClient))
        }
        #expect(error?.kind == .insecureEndpoint)
        #expect(await transport.requests.isEmpty)
    }

    @Test("A network failure becomes a transient BearerError")
    func networkFailure() async throws {
        let transport = RecordingTransport(replies: [.failure(.notConnectedToInternet)])
        let error = await #expect(throws: BearerError.self) {
            try await AuthorizationServerClient(transport: transport).token(
                TokenRequest.refresh(RefreshToken("r"), server: Fixtures.server, client: Fixtures.publicClient))
        }
        #expect(error?.kind == .network)
        #expect(error?.isTransient == true)
        #expect((error?.underlyingError as? URLError)?.code == .notConnectedToInternet)
    }

    @Test("A storage failure is not transient: someone must free space or fix permissions")
    func storageFailureIsNotTransient() {
        #expect(!BearerError.storageFailure("disk full").isTransient)
        #expect(BearerError.serverUnavailable("busy").isTransient)
    }
}
