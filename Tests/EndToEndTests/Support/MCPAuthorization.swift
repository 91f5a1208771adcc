import Bearer
import Foundation
import Testing

@testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Server/mcp_authorization.py: PyPI `mcp`'s authorization server and protected resources, with a
/// provider that checks RFC 8707 strictly, run in the pinned environment `scripts/mcp-venv` makes.
final class MCPAuthorization: Sendable {
    /// The environment's python, from `BEARER_MCP_PYTHON`.
    static let python: URL? = ProcessInfo.processInfo.environment["BEARER_MCP_PYTHON"]
        .map { URL(fileURLWithPath: $0) }

    /// Whether the MCP end-to-end tests can run.
    static var isConfigured: Bool { python != nil }

    /// Why they are skipped when they are; scripts/test fails a run that skips them.
    static let skipReason: Comment = """
        MCP TESTS SKIPPED: BEARER_MCP_PYTHON is not set. Run scripts/test, which sets up PyPI's mcp \
        (scripts/mcp-venv) and runs them.
        """

    private let script: ServerScript
    /// The authorization server's issuer.
    let issuer: URL
    /// The protected resource, and a second one whose tokens the first's are not.
    let resource: URL
    let otherResource: URL
    /// Where the harness serves Client ID Metadata Documents.
    let documents: URL

    /// Starts the harness with `arguments` (`--cimd`, `--access-token-seconds N`).
    init(arguments: [String] = []) async throws {
        let python: URL = try #require(Self.python)
        script = try await ServerScript("mcp_authorization.py", python: python, arguments: arguments)
        let (data, _) = try await TestServer.transport.send(
            URLRequest(url: script.base.appendingPathComponent("_harness")))
        let fields = try JSONDecoder().decode([String: String].self, from: data)
        issuer = try #require(fields["issuer"].flatMap(URL.init(string:)))
        resource = try #require(fields["resource"].flatMap(URL.init(string:)))
        otherResource = try #require(fields["other_resource"].flatMap(URL.init(string:)))
        documents = try #require(fields["documents"].flatMap(URL.init(string:)))
    }

    /// A URL below the resource, such as `/mcp/whoami`.
    func resource(_ path: String) throws -> URL {
        try #require(URL(string: resource.absoluteString + path))
    }

    /// One request to the authorization server, as the harness logged it: never a token, code or secret.
    struct Entry: Sendable, Decodable {
        var path: String
        var method: String
        var status: Int
        var grantType: String?
        var resource: String?
        var formKeys: [String]
        var clientID: String?

        enum CodingKeys: String, CodingKey {
            case path, method, status, resource
            case grantType = "grant_type"
            case formKeys = "form_keys"
            case clientID = "client_id"
        }
    }

    /// What the authorization server was asked, in order (OPTIONS requests left out).
    func log() async throws -> [Entry] {
        struct Log: Decodable { var requests: [Entry] }
        let (data, _) = try await TestServer.transport.send(
            URLRequest(url: script.base.appendingPathComponent("_harness/log")))
        return try JSONDecoder().decode(Log.self, from: data).requests.filter { $0.method != "OPTIONS" }
    }

    /// Empties the log.
    func clearLog() async throws {
        var request = URLRequest(url: script.base.appendingPathComponent("_harness/log"))
        request.httpMethod = "DELETE"
        _ = try await TestServer.transport.send(request)
    }

    /// Serves `document` at `<documents>/<name>`, as the app's web site would.
    func publish(_ document: [String: JSONValue], as name: String) async throws -> URL {
        var request = URLRequest(url: script.base.appendingPathComponent("_harness/documents/\(name)"))
        request.httpMethod = "PUT"
        request.httpBody = try JSONEncoder().encode(document)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        _ = try await TestServer.transport.send(request)
        return documents.appendingPathComponent(name)
    }

    /// A loopback agent on `port` (0 for any) whose browser is scripts/headless-browser.
    static func agent(port: UInt16 = 0) throws -> LoopbackAgent {
        try LoopbackAgent(port: port, timeout: .seconds(60), opener: .command(try Browser.command))
    }
}
