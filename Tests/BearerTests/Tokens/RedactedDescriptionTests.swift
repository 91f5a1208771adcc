import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Bridge) @_spi(CommandLine) @_spi(Migration) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every value that holds a secret is rendered every way Swift renders values, and the secret must
/// appear in none of the renderings.
@Suite("Secrets never print")
struct RedactionTests {
    private func renderings(of value: some Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [
            String(describing: value),
            String(reflecting: value),
            "\(value)",
            dumped,
            "\(Mirror(reflecting: value).children.map { "\($0.label ?? ""): \($0.value)" })",
        ]
    }

    private func expectNoSecret(_ secret: String, in value: some Any, sourceLocation: SourceLocation = #_sourceLocation)
    {
        for text in renderings(of: value) {
            // A Bool, so a failure message prints neither the rendering nor the secret.
            let showsSecret = text.contains(secret)
            #expect(!showsSecret, "a rendering of \(type(of: value)) shows the secret", sourceLocation: sourceLocation)
        }
    }

    @Test("Tokens, codes, secrets, requests, responses, sessions and errors never show a token value")
    func everyTypeRedacts() async throws {
        let access = TestTokens.random("access")
        let refresh = TestTokens.random("refresh")
        let code = TestTokens.random("code")
        let secret = TestTokens.random("secret")
        let client = Client(id: "c", secret: ClientSecret(secret), redirectURI: Fixtures.url("com.example.app:/cb"))
        let request = try Fixtures.request(client: client)
        let idTokenValue = Fixtures.idToken(for: request)
        let idToken = try IDToken(idTokenValue)
        let redirect = Fixtures.redirect(for: request, query: "state=\(request.state)&code=\(code)")
        let authorizationResponse = try AuthorizationResponse(redirect: redirect, for: request)
        let tokenResponse = TokenResponse(
            accessToken: AccessToken(access),
            expiresIn: 3600,
            refreshToken: RefreshToken(refresh),
            idToken: idToken
        )
        let state = try AuthState(tokenResponse: tokenResponse, request: request, clock: .fixed(Fixtures.epoch))
        let exchange = TokenRequest.authorizationCode(authorizationResponse, for: request)
        let refreshRequest = TokenRequest.refresh(RefreshToken(refresh), server: Fixtures.server, client: client)

        expectNoSecret(access, in: AccessToken(access))
        expectNoSecret(refresh, in: RefreshToken(refresh))
        expectNoSecret(secret, in: ClientSecret(secret))
        expectNoSecret(secret, in: client)
        let management = TestTokens.random("registration")
        let registered = Client(
            id: "c", secret: ClientSecret(secret), registrationAccessToken: RegistrationAccessToken(management),
            registrationClientURI: Fixtures.url("https://as.example.com/register/c"))
        expectNoSecret(management, in: RegistrationAccessToken(management))
        expectNoSecret(management, in: registered)
        expectNoSecret(secret, in: registered)
        expectNoSecret(code, in: AuthorizationCode(code))
        expectNoSecret(code, in: authorizationResponse)
        expectNoSecret(idTokenValue, in: idToken)
        expectNoSecret(request.pkce.verifier, in: request.pkce)
        expectNoSecret(request.pkce.verifier, in: request)
        for secretValue in [access, refresh, idTokenValue, secret] {
            expectNoSecret(secretValue, in: tokenResponse)
            expectNoSecret(secretValue, in: state)
            expectNoSecret(secretValue, in: state.markingSignInRequired(OAuthError(code: .invalidGrant)))
        }
        for secretValue in [code, request.pkce.verifier, secret] {
            expectNoSecret(secretValue, in: exchange)
        }
        expectNoSecret(refresh, in: refreshRequest)
        expectNoSecret(secret, in: refreshRequest)
    }

    @Test("A transport with a request in flight shows neither its token nor its URL's query")
    func transportInFlightRedacts() async throws {
        let server = try SilentServer()
        let access = TestTokens.random("access")
        let secret = TestTokens.random("secret")
        // Generous bounds: on a loaded machine running the tests in parallel, the request has
        // taken more than 10 s to reach the server.
        let transport = URLSessionTransport(timeout: 300)
        var request = TransportRequest(
            method: .get,
            url: server.url.appending(path: "files").appending(queryItems: [.init(name: "key", value: secret)]))
        request.setBearerToken(AccessToken(access))
        let sending = Task { try await transport.send(request, maximumBodySize: 1024) }
        let head = try await server.receivedRequestHead(within: 120)
        // A Bool, so a failure message does not print the token.
        let carriesToken = head.contains("Bearer \(access)")
        #expect(carriesToken, "the request is in flight")
        expectNoSecret(access, in: transport)
        expectNoSecret(secret, in: transport)
        sending.cancel()
        _ = await sending.result
    }

    @Test("Requests and responses of the transport seam show no credential, code, query or body")
    func transportValuesRedact() throws {
        let access = TestTokens.random("access")
        let secret = TestTokens.random("secret")
        let url = try #require(URL(string: "https://user:\(secret)@api.example.com/v1/files?key=\(secret)"))
        var request = TransportRequest(
            method: .post, url: url,
            headerFields: [
                "Content-Type": "application/json", "Cookie": "sid=\(secret)", "X-Api-Key": secret,
                "Referer": "https://app.example.com/cb?code=\(secret)",
            ],
            body: Data(#"{"refresh_token":"\#(secret)"}"#.utf8))
        request.setBearerToken(AccessToken(access))
        expectNoSecret(access, in: request)
        expectNoSecret(secret, in: request)
        expectNoSecret(access, in: request.headerFields)
        let fields =
            "[Content-Type: application/json, Cookie: <redacted>, X-Api-Key: <redacted>, Referer: <redacted>, "
            + "Authorization: <redacted>]"
        let size = request.body?.count ?? 0
        #expect(
            "\(request)" == "TransportRequest(POST https://api.example.com/v1/files, \(fields), body: \(size) bytes)")
        let response = TransportResponse(
            status: 302,
            headerFields: [
                "Set-Cookie": "sid=\(secret)", "Location": "com.example.app:/cb?code=\(secret)#access_token=\(access)",
                "Content-Type": "application/json", "Retry-After": "3",
            ],
            body: Data(#"{"access_token":"\#(access)"}"#.utf8))
        expectNoSecret(access, in: response)
        expectNoSecret(secret, in: response)
        #expect(
            "\(response)"
                == "TransportResponse(302, [Set-Cookie: <redacted>, Location: <redacted>, "
                + "Content-Type: application/json, Retry-After: 3], body: \(response.body.count) bytes)")
    }

    @Test("Errors raised while handling secrets do not contain them")
    func errorsRedact() async throws {
        let access = TestTokens.random("access")
        let refresh = TestTokens.random("refresh")
        let request = try Fixtures.request()
        let bodies = [
            #"{"access_token":"\#(access)","token_type":"mac","refresh_token":"\#(refresh)"}"#,
            #"{"access_token":"\#(access) \#(refresh)","token_type":"Bearer"}"#,
            #"{"access_token":"\#(access)","token_type":"Bearer","id_token":"\#(refresh)"}"#,
            "<html>\(access) \(refresh)</html>",
        ]
        for body in bodies {
            let transport = RecordingTransport(replies: [.text(200, contentType: "text/html", body)])
            let redirect = Fixtures.redirect(for: request, query: "state=\(request.state)&code=c")
            do {
                _ = try await AuthorizationServerClient(transport: transport).exchange(
                    try AuthorizationResponse(redirect: redirect, for: request),
                    for: request
                )
                Issue.record("expected an error")
            } catch {
                expectNoSecret(access, in: error)
                expectNoSecret(refresh, in: error)
                expectNoSecret(access, in: "\(error.localizedDescription)")
            }
        }
        var state = AuthState(
            server: Fixtures.server, client: Fixtures.publicClient, refreshToken: RefreshToken(refresh))
        state.additionalParameters = [:]
        var object = try JSONDecoder().decode([String: JSONValue].self, from: state.encoded())
        object["grantedScopes"] = .string(refresh)
        do {
            _ = try AuthState(encoded: JSONEncoder().encode(object))
            Issue.record("expected an error")
        } catch {
            expectNoSecret(refresh, in: error)
        }
    }
}

@Suite("Form parameters never print secrets")
struct FormParameterRedactionTests {
    @Test("Secret parameters are redacted wherever they are printed")
    func secretParameters() {
        let secret = TestTokens.random("secret")
        for name in ["code", "code_verifier", "refresh_token", "client_secret", "token", "device_code"] {
            let parameter = FormParameter(name, secret)
            for text in ["\(parameter)", String(reflecting: parameter), "\([parameter])"] {
                #expect(!text.contains(secret), "\(name)")
            }
        }
        #expect("\(FormParameter("grant_type", "refresh_token"))" == "grant_type=refresh_token")
    }

    @Test("Refused URLs are named without their query or user information")
    func urlsInErrors() throws {
        let secret = TestTokens.random("key")
        let url = try #require(URL(string: "http://user:\(secret)@api.example.com/v1?key=\(secret)#\(secret)"))
        do {
            try EndpointSecurity.check(url, allowingInsecureLoopback: false)
            Issue.record("expected an error")
        } catch {
            #expect(!"\(error)".contains(secret))
            #expect("\(error)".contains("api.example.com/v1"))
        }
    }
}
