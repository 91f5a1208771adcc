import Bearer
import Foundation
import Testing

@_spi(Testing) @_spi(Migration) @_spi(Internals) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The stock glewlwyd started by `scripts/glewlwyd-server` (see Server/glewlwyd/README.md), with
/// DPoP nonces mandatory.
enum Glewlwyd {
    /// The server's base URL, from `BEARER_GLEWLWYD_SERVER`.
    static let baseURL: URL? = ProcessInfo.processInfo.environment["BEARER_GLEWLWYD_SERVER"]
        .flatMap(URL.init(string:))

    /// Whether the glewlwyd end-to-end tests can run.
    static var isConfigured: Bool { baseURL != nil }

    /// Why they are skipped when they are; scripts/test fails a run that skips them with the
    /// server running.
    static let skipReason: Comment = """
        GLEWLWYD TESTS SKIPPED: BEARER_GLEWLWYD_SERVER is not set. Run scripts/test, which starts \
        glewlwyd and runs them.
        """

    /// The client whose tokens must be DPoP-bound, and the one for which DPoP is optional.
    static let dpopClient = "bearer-dpop"
    static let optionalClient = "bearer-optional"

    static func url(_ path: String) throws -> URL {
        let base = try #require(baseURL, "BEARER_GLEWLWYD_SERVER is not set")
        return try #require(URL(string: base.absoluteString + path))
    }

    static var issuer: URL {
        get throws { try url("/api/oidc") }
    }

    static func discover() async throws -> AuthorizationServer {
        try await AuthorizationServerClient(transport: TestServer.transport).discover(
            issuer: issuer, allowingInsecureLoopback: true)
    }

    /// A public client redirecting to `http://127.0.0.1:PORT/callback`, as registered.
    static func client(_ id: String, port: UInt16) throws -> Client {
        let redirect = "http://127.0.0.1:" + String(port) + "/callback"
        return Client(id: id, redirectURI: try #require(URL(string: redirect)) as URL)
    }

    /// A loopback agent on `port` whose browser is scripts/headless-browser, signing in as alice.
    static func agent(port: UInt16) throws -> LoopbackAgent {
        try LoopbackAgent(port: port, timeout: .seconds(120), opener: .command(try Browser.command))
    }
}

/// A transport that sends with the shared URLSessionTransport and notes, for each request, its
/// path, the answer's status and what its proof said; never a token or a proof.
actor ObservingTransport: HTTPTransport {
    struct Exchange: Sendable {
        var method: String
        var path: String
        var status: Int
        var hadProof: Bool
        var proofNonce: String?
        var proofIdentifier: String?
        /// The names of the form body's parameters (never their values).
        var formParameterNames: Set<String>
        /// The SHA-256 of the form's `subject_token` (a token exchange's), never the token.
        var subjectTokenDigest: [UInt8]?
    }

    private(set) var exchanges: [Exchange] = []
    private let transport = URLSessionTransport()

    nonisolated func send(_ request: TransportRequest) async throws -> TransportResponse {
        let response = try await transport.send(request)
        await note(request, response)
        return response
    }

    private func note(_ request: TransportRequest, _ response: TransportResponse) {
        let claims = request.headerFields["DPoP"].flatMap { proof -> [String: JSONValue]? in
            let parts = proof.split(separator: ".")
            guard parts.count == 3, let payload = Base64URL.decode(parts[1]) else { return nil }
            return try? JSONDecoder().decode([String: JSONValue].self, from: payload)
        }
        let form = FormEncoding.decodePairs(String(decoding: request.body ?? Data(), as: UTF8.self))
        exchanges.append(
            Exchange(
                method: request.method.rawValue, path: request.url.path, status: response.status,
                hadProof: request.headerFields["DPoP"] != nil, proofNonce: claims?["nonce"]?.stringValue,
                proofIdentifier: claims?["jti"]?.stringValue,
                formParameterNames: Set(form.map(\.name)),
                subjectTokenDigest: form.first { $0.name == "subject_token" }.map { SHA256.hash(Array($0.value.utf8)) })
        )
    }

    /// The exchanges with paths ending in `suffix`.
    func exchanges(toPathEnding suffix: String) -> [Exchange] {
        exchanges.filter { $0.path.hasSuffix(suffix) }
    }
}
