import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Internals) @_spi(Migration) @testable import BearerCore

@Suite("Token exchange (RFC 8693) at the one server client")
struct TokenExchangeTests {
    static let subject = SecurityToken(TestTokens.random("subject"))

    static func exchange(
        _ request: TokenExchangeRequest, replies: [RecordingTransport.Reply]
    ) async throws -> (TokenExchangeResponse, RecordingTransport) {
        let transport = RecordingTransport(replies: replies)
        let answer = try await AuthorizationServerClient(transport: transport, clock: .fixed(Fixtures.epoch))
            .exchangeToken(request, at: Fixtures.server, as: Fixtures.confidentialClient)
        return (answer, transport)
    }

    @Test("Every parameter is sent by its RFC 8693 name, the client authenticates, and the answer is read")
    func parametersAndAnswer() async throws {
        let issued = TestTokens.random("issued")
        let request = TokenExchangeRequest(
            subjectToken: Self.subject, subjectTokenType: .idToken, actorToken: SecurityToken("actor-token"),
            actorTokenType: .jwt, requestedTokenType: .accessToken, audiences: ["billing", "ledger"],
            resources: [Fixtures.url("https://api.example.com/v1")], scopes: ["read", "write"])
        let (answer, transport) = try await Self.exchange(
            request,
            replies: [
                .json(
                    200,
                    #"{"access_token":"\#(issued)","issued_token_type":"urn:ietf:params:oauth:token-type:access_token","token_type":"Bearer","expires_in":300,"scope":"read"}"#
                )
            ])
        let sent = try #require(await transport.requests.first)
        #expect(sent.url == Fixtures.server.tokenEndpoint)
        #expect(sent.headerFields["Authorization"]?.hasPrefix("Basic ") == true)
        let form = sent.formBody
        #expect(form["grant_type"] == "urn:ietf:params:oauth:grant-type:token-exchange")
        #expect(form["subject_token"] == Self.subject.value)
        #expect(form["subject_token_type"] == "urn:ietf:params:oauth:token-type:id_token")
        #expect(form["actor_token"] == "actor-token")
        #expect(form["actor_token_type"] == "urn:ietf:params:oauth:token-type:jwt")
        #expect(form["requested_token_type"] == "urn:ietf:params:oauth:token-type:access_token")
        #expect(form["scope"] == "read write")
        let body = String(decoding: sent.body ?? Data(), as: UTF8.self)
        #expect(body.contains("audience=billing&audience=ledger"), "each audience is its own parameter")
        #expect(body.contains("resource=https%3A%2F%2Fapi.example.com%2Fv1"))
        #expect(answer.issuedToken.value == issued)
        #expect(answer.issuedTokenType == .accessToken)
        #expect(answer.expiresIn == 300)
        #expect(answer.scopes == ["read"])
        for text in ["\(answer)", "\(request)", String(reflecting: answer), String(reflecting: request)] {
            #expect(!text.contains(issued) && !text.contains(Self.subject.value) && !text.contains("actor-token"))
        }
    }

    @Test("A token of another type than the one asked for is refused, and revoked")
    func wrongIssuedTokenType() async throws {
        let issued = TestTokens.random("issued")
        let transport = RecordingTransport(replies: [
            .json(
                200,
                #"{"access_token":"\#(issued)","issued_token_type":"urn:ietf:params:oauth:token-type:refresh_token","token_type":"N_A"}"#
            ),
            .json(200, "{}"),
        ])
        let client = AuthorizationServerClient(transport: transport, clock: .fixed(Fixtures.epoch))
        let error = await #expect(throws: BearerError.self) {
            _ = try await client.exchangeToken(
                TokenExchangeRequest(
                    subjectToken: Self.subject, subjectTokenType: .accessToken, requestedTokenType: .accessToken),
                at: Fixtures.server, as: Fixtures.confidentialClient)
        }
        #expect(error?.kind == .invalidResponse)
        let revocation = try #require(await transport.requests(toPathEnding: "/revoke").first)
        #expect(revocation.formBody["token"] == issued)
        #expect(revocation.formBody["token_type_hint"] == "refresh_token")
    }

    @Test(
        "Hostile or broken answers are refused with a typed error",
        arguments: [
            #"{"issued_token_type":"urn:ietf:params:oauth:token-type:access_token","token_type":"Bearer"}"#,
            #"{"access_token":"tok","token_type":"Bearer"}"#,
            #"{"access_token":"tok","issued_token_type":"urn:ietf:params:oauth:token-type:access_token"}"#,
            #"{"access_token":"tok","issued_token_type":"urn:ietf:params:oauth:token-type:access_token","token_type":"MAC"}"#,
            #"{"access_token":"t o k","issued_token_type":"urn:ietf:params:oauth:token-type:access_token","token_type":"Bearer"}"#,
            #"{"access_token":"tok","issued_token_type":"urn:ietf:params:oauth:token-type:access_token","token_type":"Bearer","expires_in":"soon"}"#,
        ])
    func malformedAnswers(body: String) async throws {
        let error = await #expect(throws: BearerError.self) {
            _ = try await Self.exchange(
                TokenExchangeRequest(subjectToken: Self.subject, subjectTokenType: .accessToken),
                replies: [.json(200, body)])
        }
        #expect(error?.kind == .invalidResponse)
    }

    @Test("The server's refusals are OAuth errors: invalid_target for an audience it will not issue for")
    func serverRefusal() async throws {
        let error = await #expect(throws: OAuthError.self) {
            _ = try await Self.exchange(
                TokenExchangeRequest(subjectToken: Self.subject, subjectTokenType: .accessToken, audiences: ["nope"]),
                replies: [.json(400, #"{"error":"invalid_target","error_description":"unknown audience"}"#)])
        }
        #expect(error?.code == .invalidTarget)
    }

    @Test("A request that cannot be sent is refused before anything is sent")
    func requestChecks() async throws {
        let requests = [
            TokenExchangeRequest(subjectToken: SecurityToken(""), subjectTokenType: .accessToken),
            TokenExchangeRequest(
                subjectToken: Self.subject, subjectTokenType: .accessToken, actorToken: SecurityToken("actor")),
            TokenExchangeRequest(
                subjectToken: Self.subject, subjectTokenType: .accessToken,
                resources: [Fixtures.url("https://api.example.com/#part")]),
        ]
        for request in requests {
            let transport = RecordingTransport()
            let error = await #expect(throws: BearerError.self) {
                _ = try await AuthorizationServerClient(transport: transport)
                    .exchangeToken(request, at: Fixtures.server, as: Fixtures.publicClient)
            }
            #expect(error?.kind == .invalidConfiguration)
            #expect(await transport.requests.isEmpty)
        }
    }

    @Test("The subject, actor and assertion are redacted from a token request's description")
    func redaction() {
        let request = TokenRequest(
            server: Fixtures.server,
            parameters: [
                FormParameter("subject_token", "sub-secret"), FormParameter("actor_token", "act-secret"),
                FormParameter("assertion", "jwt-secret"),
            ], client: Fixtures.publicClient)
        let text = "\(request)"
        #expect(!text.contains("secret"))
    }
}
