import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore

/// Records the URL a sign-in shows, then answers with `state` and a code, queueing `answers`
/// (the token endpoint's) first.
final class RecordingURLAgent: AuthorizationAgent, @unchecked Sendable {
    private let transport: RecordingTransport
    private let answers: @Sendable (AuthorizationRequest) -> [RecordingTransport.Reply]
    private let lock = NSLock()
    private var shownURLs: [URL] = []

    init(
        _ transport: RecordingTransport,
        answers: @escaping @Sendable (AuthorizationRequest) -> [RecordingTransport.Reply]
    ) {
        self.transport = transport
        self.answers = answers
    }

    /// The URLs shown so far.
    var shown: [URL] { lock.withLock { shownURLs } }

    func present(_ request: AuthorizationRequest) async throws -> URL {
        lock.withLock { shownURLs.append(request.url) }
        for reply in answers(request) { await transport.enqueue(reply) }
        return Fixtures.redirect(for: request, query: "state=\(request.state)&code=the-code")
    }
}

/// Pushed authorization requests (RFC 9126) on the fake transport: when a sign-in pushes, what it
/// pushes and shows, and how each refusal or malformed answer fails it without showing anything.
@Suite("Pushed authorization requests: pushed where advertised or required, never a silent fallback")
struct PushedAuthorizationTests {
    static let parURL = Fixtures.url("https://auth.example.com/par")
    static let requestURI = "urn:ietf:params:oauth:request_uri:pushed-0123456789"

    static func server(endpoint: URL? = parURL, requires: Bool? = nil) -> AuthorizationServer {
        var server = Fixtures.server
        server.pushedAuthorizationRequestEndpoint = endpoint
        server.requiresPushedAuthorizationRequests = requires
        return server
    }

    static let pushedAnswer = RecordingTransport.Reply.json(
        201, #"{"request_uri":"\#(requestURI)","expires_in":90}"#)
    static let tokens = RecordingTransport.Reply.json(
        200, #"{"access_token":"at-1","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-1"}"#)

    typealias Outcome = (
        result: Result<AuthSession, any Error>, requests: [TransportRequest], shown: [URL], store: InMemorySessionStore
    )

    static func signIn(
        server: AuthorizationServer = server(),
        client: Client = Fixtures.publicClient,
        use: PushedAuthorizationUse = .whenAdvertised,
        pushAnswer: RecordingTransport.Reply? = pushedAnswer
    ) async -> Outcome {
        let transport = RecordingTransport(replies: pushAnswer.map { [$0] } ?? [])
        let agent = RecordingURLAgent(transport) { _ in [tokens] }
        let store = InMemorySessionStore()
        var configuration = AuthSession.Configuration()
        configuration.pushedAuthorization = use
        let result: Result<AuthSession, any Error>
        do {
            result = .success(
                try await AuthSession.signIn(
                    to: server, as: client, scopes: ["email"], using: agent, store: store, transport: transport,
                    clock: .fixed(Fixtures.epoch), configuration: configuration))
        } catch {
            result = .failure(error)
        }
        return (result, await transport.requests, agent.shown, store)
    }

    /// Expects a sign-in that failed with `kind` after the push alone, showing nothing and saving nothing.
    static func expectFailedPush(
        _ outcome: Outcome, _ kind: BearerError.Kind, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        guard case .failure(let error) = outcome.result else {
            Issue.record("the sign-in succeeded", sourceLocation: sourceLocation)
            return
        }
        #expect((error as? BearerError)?.kind == kind, "\(error)", sourceLocation: sourceLocation)
        #expect(outcome.requests.map(\.url) == [parURL], sourceLocation: sourceLocation)
        #expect(outcome.shown.isEmpty, "a request went through the browser", sourceLocation: sourceLocation)
        #expect(try await outcome.store.keys().isEmpty, sourceLocation: sourceLocation)
    }

    @Test("An advertised endpoint gets the whole request; the browser carries only client_id and request_uri")
    func pushesWhereAdvertised() async throws {
        let outcome = await Self.signIn()
        _ = try outcome.result.get()
        let push = try #require(outcome.requests.first)
        #expect(push.url == Self.parURL)
        #expect(push.method == .post)
        let body = push.formBody
        #expect(body["response_type"] == "code")
        #expect(body["client_id"] == Fixtures.publicClient.id)
        #expect(body["redirect_uri"] == Fixtures.publicClient.redirectURI?.absoluteString)
        #expect(body["code_challenge_method"] == "S256")
        #expect(body["code_challenge"] != nil && body["state"] != nil)
        let shown = try #require(outcome.shown.first)
        let query = try #require(URLComponents(url: shown, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(query.map(\.name) == ["client_id", "request_uri"])
        #expect(query.last?.value == Self.requestURI)
        #expect(shown.absoluteString.hasPrefix("https://auth.example.com/authorize?"))
    }

    @Test("A sign-in with PAR sends exactly one more request than one without")
    func oneMoreRequest() async throws {
        let pushed = await Self.signIn()
        let plain = await Self.signIn(server: Self.server(endpoint: nil), pushAnswer: nil)
        _ = try pushed.result.get()
        _ = try plain.result.get()
        #expect(pushed.requests.count == plain.requests.count + 1)
        #expect(pushed.requests.dropFirst().map(\.url) == plain.requests.map(\.url))
        let shown = try #require(plain.shown.first)
        #expect(shown.query?.contains("code_challenge=") == true)
    }

    @Test("A confidential client authenticates at the PAR endpoint as at the token endpoint")
    func confidentialClientAuthenticates() async throws {
        let outcome = await Self.signIn(client: Fixtures.confidentialClient)
        _ = try outcome.result.get()
        let push = try #require(outcome.requests.first)
        #expect(push.headerFields["Authorization"]?.hasPrefix("Basic ") == true)
        #expect(push.formBody["client_secret"] == nil)
        #expect(push.formBody["client_id"] == nil)
        let query = FormEncoding.decodePairs(try #require(outcome.shown.first?.query))
        #expect(query.first?.value == Fixtures.confidentialClient.id)
    }

    @Test(".never leaves an advertised endpoint alone; .required refuses a server without one before sending")
    func settings() async throws {
        let never = await Self.signIn(use: .never, pushAnswer: nil)
        _ = try never.result.get()
        #expect(!never.requests.contains { $0.url == Self.parURL })

        let required = await Self.signIn(server: Self.server(endpoint: nil), use: .required, pushAnswer: nil)
        guard case .failure(let error) = required.result else { throw Unexpected("sign-in succeeded") }
        #expect((error as? BearerError)?.kind == .invalidConfiguration)
        #expect(required.requests.isEmpty && required.shown.isEmpty)
    }

    @Test("require_pushed_authorization_requests: refused with pushing turned off, or with no endpoint to push to")
    func serverRequiresPush() async throws {
        for (server, use) in [
            (Self.server(requires: true), PushedAuthorizationUse.never),
            (Self.server(endpoint: nil, requires: true), .whenAdvertised),
        ] {
            let outcome = await Self.signIn(server: server, use: use, pushAnswer: nil)
            guard case .failure(let error) = outcome.result else { throw Unexpected("sign-in succeeded") }
            #expect((error as? BearerError)?.kind == .invalidConfiguration)
            #expect("\(error)".contains("require_pushed_authorization_requests") || "\(error)".contains("requires"))
            #expect(outcome.requests.isEmpty && outcome.shown.isEmpty)
        }
    }

    @Test("PAR answered without request_uri fails the sign-in; nothing goes through the browser")
    func answerWithoutRequestURI() async throws {
        try await Self.expectFailedPush(
            await Self.signIn(pushAnswer: .json(201, #"{"expires_in":90}"#)), .invalidResponse)
        try await Self.expectFailedPush(
            await Self.signIn(pushAnswer: .json(201, #"{"request_uri":"","expires_in":90}"#)), .invalidResponse)
        try await Self.expectFailedPush(
            await Self.signIn(pushAnswer: .json(201, #"{"request_uri":"has space","expires_in":90}"#)),
            .invalidResponse)
    }

    @Test("PAR answered with a non-integer, missing, zero or string expires_in fails the sign-in")
    func answerWithBadLifetime() async throws {
        for lifetime in [#""expires_in":1.5"#, #""expires_in":"90""#, #""expires_in":0"#, #""other":1"#] {
            try await Self.expectFailedPush(
                await Self.signIn(pushAnswer: .json(201, #"{"request_uri":"urn:x:1",\#(lifetime)}"#)),
                .invalidResponse)
        }
    }

    @Test("PAR answered with 400 and an OAuth error: the server's error, typed, and nothing shown")
    func answerWithOAuthError() async throws {
        let outcome = await Self.signIn(
            pushAnswer: .json(400, #"{"error":"invalid_request","error_description":"bad redirect_uri"}"#))
        guard case .failure(let error) = outcome.result else { throw Unexpected("sign-in succeeded") }
        let oauth = try #require(error as? OAuthError)
        #expect(oauth.code == .invalidRequest)
        #expect(oauth.statusCode == 400)
        #expect(outcome.shown.isEmpty && outcome.requests.count == 1)
    }

    @Test("PAR answered with 403 and an empty body (glewlwyd's refusals): a typed error naming the registration")
    func answerForbiddenEmpty() async throws {
        let outcome = await Self.signIn(pushAnswer: .response(status: 403, headers: [:], body: Data()))
        try await Self.expectFailedPush(outcome, .invalidResponse)
        guard case .failure(let error) = outcome.result else { return }
        #expect("\(error)".contains("HTTP 403") && "\(error)".contains("redirect URIs"))
    }

    @Test("PAR endpoint unreachable or failing: a network or server error, never a front-channel request")
    func unreachableOrFailing() async throws {
        try await Self.expectFailedPush(await Self.signIn(pushAnswer: .failure(.cannotConnectToHost)), .network)
        try await Self.expectFailedPush(
            await Self.signIn(pushAnswer: .text(503, contentType: "text/html", "down")), .serverUnavailable)
    }

    @Test("A plain-http PAR endpoint in the metadata is refused at discovery, not skipped")
    func discoveryRefusesInsecureEndpoint() throws {
        let text =
            #"{"issuer":"https://auth.example.com","authorization_endpoint":"https://auth.example.com/a","#
            + #""token_endpoint":"https://auth.example.com/t","pushed_authorization_request_endpoint":"#
            + #""http://auth.example.com/par","require_pushed_authorization_requests":true}"#
        let metadata = Data(text.utf8)
        #expect(throws: BearerError.self) {
            try AuthorizationServer(metadata: metadata, expectedIssuer: Fixtures.url("https://auth.example.com"))
        }
        let secure = Data(text.replacingOccurrences(of: "http://auth", with: "https://auth").utf8)
        let server = try AuthorizationServer(metadata: secure, expectedIssuer: Fixtures.url("https://auth.example.com"))
        #expect(server.pushedAuthorizationRequestEndpoint == Self.parURL)
        #expect(server.requiresPushedAuthorizationRequests == true)
    }

    @Test("An extra parameter cannot name request_uri")
    func requestURIIsStandard() {
        #expect(throws: BearerError.self) {
            try AuthorizationRequest(
                server: Fixtures.server, client: Fixtures.publicClient, scopes: ["email"],
                additionalParameters: ["request_uri": "urn:attacker"])
        }
    }
}

struct Unexpected: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
