import Bearer
import BearerTestSupport
import Foundation
import Testing

@testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A fake protected resource and its authorization server behind one transport: each request is
/// answered by the route of its URL (without the query), and every request is recorded. A route
/// holds answers used in turn, the last one again and again; a URL without a route answers `404`.
actor RoutedTransport: HTTPTransport {
    typealias Answer = @Sendable (TransportRequest) -> RecordingTransport.Reply

    /// The requests sent so far, in order.
    private(set) var requests: [TransportRequest] = []
    private var routes: [String: [Answer]] = [:]

    /// Answers requests to `url` with `replies`, in turn, the last one from then on.
    func route(_ url: String, _ replies: RecordingTransport.Reply...) {
        route(url, replies: replies)
    }

    /// Answers requests to `url` with `replies`, in turn, the last one from then on.
    func route(_ url: String, replies: [RecordingTransport.Reply]) {
        routes[url] = replies.map { reply in { _ in reply } }
    }

    /// Answers every request to `url` as `answer` says.
    func route(_ url: String, by answer: @escaping Answer) {
        routes[url] = [answer]
    }

    /// The URLs of the requests sent so far, in order.
    var urls: [String] { requests.map(\.url.absoluteString) }

    /// The requests sent to `url` (without the query).
    func requests(to url: String) -> [TransportRequest] {
        requests.filter { Self.routeKey($0.url) == url }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        requests.append(request)
        let key = Self.routeKey(request.url)
        guard var answers = routes[key], let answer = answers.first else {
            return TransportResponse(status: 404, headerFields: ["Content-Type": "text/plain"], body: Data("no".utf8))
        }
        if answers.count > 1 {
            answers.removeFirst()
            routes[key] = answers
        }
        switch answer(request) {
        case .response(let status, let headers, let body):
            return TransportResponse(status: status, headerFields: HTTPHeaderFields(headers), body: body)
        case .failure(let code):
            throw URLError(code)
        }
    }

    private static func routeKey(_ url: URL) -> String {
        String(url.absoluteString.prefix { $0 != "?" })
    }
}

/// An agent with its own redirect URI, as a loopback agent has, that approves every request with
/// a new code and records what it was shown.
final class RedirectingAgent: AuthorizationAgent {
    let redirectURI: URL?
    private let shown = Recorder<AuthorizationRequest>()

    init(redirectURI: String = ResourceWorld.redirectURI) {
        self.redirectURI = Fixtures.url(redirectURI)
    }

    /// The requests shown so far, in order.
    var presented: [AuthorizationRequest] { shown.all }

    func present(_ request: AuthorizationRequest) async throws -> URL {
        shown.record(request)
        return Fixtures.redirect(for: request, query: "state=\(request.state)&code=code-\(shown.all.count)")
    }
}

/// The documents and answers of a fake MCP server at `https://mcp.example.com/mcp` and its
/// authorization server `https://as.example.com`.
enum ResourceWorld {
    static let resource = "https://mcp.example.com/mcp"
    static let resourceMetadata = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
    static let issuer = "https://as.example.com"
    static let serverMetadata = "https://as.example.com/.well-known/oauth-authorization-server"
    static let register = "https://as.example.com/register"
    static let token = "https://as.example.com/token"
    static let redirectURI = "http://127.0.0.1:53682/callback"
    static let identity = ClientIdentity(name: "Example Agent")

    /// A protected resource metadata document (RFC 9728 §2).
    static func resourceDocument(
        resource: String = resource,
        servers: [String] = [issuer],
        scopes: [String]? = ["tools.read", "tools.write"]
    ) -> String {
        var fields: [String: JSONValue] = [
            "resource": .string(resource), "authorization_servers": .array(servers.map(JSONValue.string)),
        ]
        if let scopes { fields["scopes_supported"] = .array(scopes.map(JSONValue.string)) }
        return json(fields)
    }

    /// An authorization server metadata document (RFC 8414 §2).
    static func serverDocument(
        issuer: String = issuer,
        registration: Bool = true,
        scopes: [String]? = ["tools.read", "tools.write"],
        metadataDocuments: Bool? = nil
    ) -> String {
        var fields: [String: JSONValue] = [
            "issuer": .string(issuer), "authorization_endpoint": .string(issuer + "/authorize"),
            "token_endpoint": .string(issuer + "/token"), "code_challenge_methods_supported": .array([.string("S256")]),
        ]
        if registration { fields["registration_endpoint"] = .string(issuer + "/register") }
        if let scopes { fields["scopes_supported"] = .array(scopes.map(JSONValue.string)) }
        if let metadataDocuments { fields["client_id_metadata_document_supported"] = .bool(metadataDocuments) }
        return json(fields)
    }

    /// The resource's `401` to a request without a token, naming its metadata and `scope`.
    static func unauthorized(scope: String? = "tools.read") -> RecordingTransport.Reply {
        let challenge = #"Bearer resource_metadata="\#(resourceMetadata)""# + (scope.map { #", scope="\#($0)""# } ?? "")
        return .json(401, #"{"error":"unauthorized"}"#, headers: ["WWW-Authenticate": challenge])
    }

    /// A registration answer (RFC 7591 §3.2.1) for `redirectURI`.
    static func registered(_ id: String = "dyn-1", extra: String = "", status: Int = 201) -> RecordingTransport.Reply {
        .json(status, #"{"client_id":"\#(id)","redirect_uris":["\#(redirectURI)"]\#(extra)}"#)
    }

    /// A token answer.
    static func tokens(_ access: String = "at-1", refresh: String = "rt-1", scope: String = "tools.read")
        -> RecordingTransport.Reply
    {
        .json(
            200,
            #"{"access_token":"\#(access)","token_type":"Bearer","expires_in":3600,"refresh_token":"\#(refresh)","#
                + #""scope":"\#(scope)"}"#)
    }

    /// A transport answering as the resource and its server do, with the documents given.
    static func transport(
        probe: RecordingTransport.Reply = unauthorized(),
        resourceDocument: String = resourceDocument(),
        serverDocument: String = serverDocument(),
        registration: RecordingTransport.Reply = registered(),
        tokens: [RecordingTransport.Reply] = [tokens()]
    ) async -> RoutedTransport {
        let transport = RoutedTransport()
        await transport.route(resource, probe)
        await transport.route(resourceMetadata, .json(200, resourceDocument))
        await transport.route(serverMetadata, .json(200, serverDocument))
        await transport.route(register, registration)
        await transport.route(token, replies: tokens)
        return transport
    }

    /// Signs in to the resource as `identity` with `agent`.
    static func signIn(
        _ transport: RoutedTransport,
        store: any SessionStore,
        agent: RedirectingAgent = RedirectingAgent(),
        identity: ClientIdentity = identity,
        at date: Date = Fixtures.epoch
    ) async throws -> AuthSession {
        try await AuthSession.signIn(
            toResource: Fixtures.url(resource), as: identity, using: agent, store: store, transport: transport,
            clock: .fixed(date))
    }

    /// The JSON object of a request's body.
    static func jsonBody(_ request: TransportRequest) throws -> [String: JSONValue] {
        try JSONDecoder().decode([String: JSONValue].self, from: try #require(request.body))
    }

    private static func json(_ fields: [String: JSONValue]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(fields)) ?? Data(), as: UTF8.self)
    }
}
