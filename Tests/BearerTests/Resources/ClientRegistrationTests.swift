import Bearer
import BearerTestSupport
import Foundation
import Testing

@testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Dynamic client registration (RFC 7591) at a server found through a resource: what is sent,
/// which answers give a client, and how that client authenticates afterwards.
@Suite("Protected resources: client registration")
struct ClientRegistrationTests {
    static let loopback = Fixtures.url(ResourceWorld.redirectURI)

    static let server: AuthorizationServer = {
        var server = Fixtures.server
        server.registrationEndpoint = Fixtures.url("https://auth.example.com/register")
        return server
    }()

    func register(
        _ replies: [RecordingTransport.Reply],
        redirectURI: URL = loopback
    ) async throws -> (Client, RecordingTransport) {
        let transport = RecordingTransport(replies: replies)
        let client = try await AuthorizationServerClient(transport: transport).register(
            "Example Agent", redirectURI: redirectURI, at: Self.server)
        return (client, transport)
    }

    func refusal(_ answer: RecordingTransport.Reply) async -> BearerError? {
        await #expect(throws: BearerError.self) { try await register([answer]) }
    }

    @Test("The registration is a JSON POST of a native public client, with no auth method and no scope")
    func requestBody() async throws {
        let (_, transport) = try await register([ResourceWorld.registered()])
        let request = try #require(await transport.requests.first)
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "https://auth.example.com/register")
        #expect(request.headerFields["Content-Type"] == "application/json")
        #expect(request.headerFields["Authorization"] == nil)
        let body = try ResourceWorld.jsonBody(request)
        #expect(body["client_name"] == "Example Agent")
        #expect(body["redirect_uris"] == [.string(ResourceWorld.redirectURI)])
        #expect(body["grant_types"] == ["authorization_code", "refresh_token"])
        #expect(body["response_types"] == ["code"])
        #expect(body["application_type"] == "native")
        #expect(body["token_endpoint_auth_method"] == nil)
        #expect(body["scope"] == nil)
        #expect(body.count == 5)
    }

    @Test("A private-use scheme redirect registers a native client; an https one does not say")
    func applicationType() async throws {
        let answer = #"{"client_id":"dyn-1"}"#
        let (_, custom) = try await register(
            [.json(201, answer)], redirectURI: Fixtures.url("com.example.agent:/oauth2callback"))
        #expect(try ResourceWorld.jsonBody(try #require(await custom.requests.first))["application_type"] == "native")
        let (_, web) = try await register(
            [.json(201, answer)], redirectURI: Fixtures.url("https://agent.example.com/callback"))
        #expect(try ResourceWorld.jsonBody(try #require(await web.requests.first))["application_type"] == nil)
    }

    @Test("201 and 200 answers both give the client, public without a secret")
    func createdAndOK() async throws {
        for status in [201, 200] {
            let (client, _) = try await register([ResourceWorld.registered("dyn-\(status)", status: status)])
            #expect(client.id == "dyn-\(status)")
            #expect(client.secret == nil)
            #expect(client.authentication == ClientAuthentication.none)
            #expect(client.redirectURI == Self.loopback)
        }
    }

    @Test("A secret without a method is client_secret_basic, and keeps its expiry")
    func secretDefaultsToBasic() async throws {
        let (client, _) = try await register([
            ResourceWorld.registered(extra: #","client_secret":"s3cret","client_secret_expires_at":1800003600"#)
        ])
        #expect(client.secret?.value == "s3cret")
        #expect(client.authentication == .clientSecretBasic)
        #expect(client.secretExpiresAt == Date(timeIntervalSince1970: 1_800_003_600))
    }

    @Test("RFC 7592's registration access token and URI are kept with the client, and saved with it")
    func managementCredentialsKept() async throws {
        let (client, _) = try await register([
            ResourceWorld.registered(
                extra: #","registration_access_token":"rat-1","#
                    + #""registration_client_uri":"https://auth.example.com/register/dyn-1""#)
        ])
        #expect(client.registrationAccessToken?.value == "rat-1")
        #expect(client.registrationClientURI?.absoluteString == "https://auth.example.com/register/dyn-1")
        let saved = try JSONDecoder().decode(Client.self, from: try JSONEncoder().encode(client))
        #expect(saved == client)
        let (plain, _) = try await register([ResourceWorld.registered()])
        #expect(plain.registrationAccessToken == nil && plain.registrationClientURI == nil)
    }

    @Test("An answer without a usable client_id is registrationFailed")
    func noClientID() async {
        for answer in [
            #"{"redirect_uris":["\#(ResourceWorld.redirectURI)"]}"#, #"{"client_id":""}"#, #"{"client_id":42}"#,
            #"{"client_id":"bad\nid"}"#,
        ] {
            #expect(await refusal(.json(201, answer))?.kind == .registrationFailed, "\(answer)")
        }
    }

    @Test("A success whose body is not a JSON object is registrationFailed; a failing server is serverUnavailable")
    func unreadableAnswer() async {
        for answer in ["[]", #""dyn-1""#, "<html>sign in to the network</html>"] {
            #expect(await refusal(.json(201, answer))?.kind == .registrationFailed, "\(answer)")
        }
        let failing = RecordingTransport.Reply.text(503, contentType: "text/html", "<html>down</html>")
        #expect(await refusal(failing)?.kind == .serverUnavailable)
    }

    @Test("An error answer such as invalid_client_metadata is registrationFailed, with the OAuth error under it")
    func errorAnswer() async throws {
        let error = try #require(
            await refusal(.json(400, #"{"error":"invalid_client_metadata","error_description":"bad redirect"}"#)))
        #expect(error.kind == .registrationFailed)
        #expect((error.underlyingError as? OAuthError)?.code.rawValue == "invalid_client_metadata")
        #expect(error.reason.contains("invalid_client_metadata"))
    }

    @Test("An authentication method Bearer cannot use, or a secret method without a secret, is registrationFailed")
    func unusableMethod() async {
        for extra in [
            #","client_secret":"s","token_endpoint_auth_method":"private_key_jwt""#,
            #","token_endpoint_auth_method":"client_secret_basic""#,
            #","token_endpoint_auth_method":"client_secret_post""#,
        ] {
            #expect(await refusal(ResourceWorld.registered(extra: extra))?.kind == .registrationFailed, "\(extra)")
        }
    }

    @Test("An answer whose redirect_uris leave out ours is registrationFailed")
    func otherRedirectURIs() async {
        let answer = RecordingTransport.Reply.json(
            201, #"{"client_id":"dyn-1","redirect_uris":["http://127.0.0.1:1/elsewhere"]}"#)
        #expect(await refusal(answer)?.kind == .registrationFailed)
    }

    @Test("A server without registration_endpoint and no configured client is registrationFailed, with no request")
    func noRegistrationEndpoint() async throws {
        let transport = RecordingTransport()
        let error = await #expect(throws: BearerError.self) {
            try await AuthorizationServerClient(transport: transport).client(
                of: ResourceWorld.identity, at: Fixtures.server, redirectURI: Self.loopback, registered: nil)
        }
        #expect(error?.kind == .registrationFailed)
        #expect(await transport.requests.isEmpty)
    }

    @Test("A client_secret_post registration sends client_id and client_secret in the token form, with no Basic header")
    func secretPostAtTokenEndpoint() async throws {
        let transport = await ResourceWorld.transport(
            registration: ResourceWorld.registered(
                extra: #","client_secret":"s3cret","token_endpoint_auth_method":"client_secret_post""#))
        _ = try await ResourceWorld.signIn(transport, store: InMemorySessionStore())
        let exchange = try #require(await transport.requests(to: ResourceWorld.token).first)
        #expect(exchange.formBody["client_id"] == "dyn-1")
        #expect(exchange.formBody["client_secret"] == "s3cret")
        #expect(exchange.formBody["grant_type"] == "authorization_code")
        #expect(exchange.headerFields["Authorization"] == nil)
    }

    @Test("A client_secret_basic registration sends a Basic header, client_id in the form, and no secret in it")
    func secretBasicAtTokenEndpoint() async throws {
        let transport = await ResourceWorld.transport(
            registration: ResourceWorld.registered(extra: #","client_secret":"s3cret""#))
        _ = try await ResourceWorld.signIn(transport, store: InMemorySessionStore())
        let exchange = try #require(await transport.requests(to: ResourceWorld.token).first)
        let basic = "Basic " + Data("dyn-1:s3cret".utf8).base64EncodedString()
        #expect(exchange.headerFields["Authorization"] == basic)
        #expect(exchange.formBody["client_id"] == "dyn-1")
        #expect(exchange.formBody["client_secret"] == nil)
    }
}
