import Bearer
import Foundation
import Testing

@testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The local django-oauth-toolkit server started by `scripts/e2e-server` (see Server/README.md).
enum TestServer {
    /// The server's base URL, from `BEARER_E2E_SERVER`.
    static let baseURL: URL? = ProcessInfo.processInfo.environment["BEARER_E2E_SERVER"].flatMap(URL.init(string:))

    /// Whether the end-to-end tests can run.
    static var isConfigured: Bool { baseURL != nil }

    /// Why the end-to-end tests are skipped when they are.
    static let skipReason: Comment = """
        END-TO-END TESTS SKIPPED: BEARER_E2E_SERVER is not set. Run scripts/test, which starts the \
        authorization server and runs them.
        """

    static let transport = URLSessionTransport()

    static func url(_ path: String) throws -> URL {
        let base = try #require(baseURL, "BEARER_E2E_SERVER is not set")
        return try #require(URL(string: base.absoluteString + path))
    }

    static var issuer: URL {
        get throws { try url("/o") }
    }

    static func discover() async throws -> AuthorizationServer {
        try await AuthorizationServerClient(transport: transport).discover(
            issuer: issuer, allowingInsecureLoopback: true)
    }

    static let appRedirect = "com.example.bearer:/oauth2callback"

    static func client(_ id: String, secret: String? = nil, redirect: String = appRedirect) throws -> Client {
        Client(id: id, secret: secret.map(ClientSecret.init), redirectURI: try #require(URL(string: redirect)) as URL)
    }

    /// Token-endpoint requests from `clientID` seen so far, all grant types.
    static func tokenRequestCount(client clientID: String) async throws -> Int {
        let (data, _) = try await transport.send(URLRequest(url: try url("/counters")))
        let counters = try JSONDecoder().decode([String: JSONValue].self, from: data)
        guard case .object(let byClient)? = counters["token_requests_by_client"],
            case .object(let grants)? = byClient[clientID]
        else { return 0 }
        return grants.values.reduce(0) { $0 + Int($1.numberValue ?? 0) }
    }

    /// Calls the Drive-like endpoint with `token` and returns the status, the body and the
    /// `WWW-Authenticate` header.
    static func driveAbout(token: AccessToken?) async throws -> (Int, [String: JSONValue], String?) {
        var request = URLRequest(url: try url("/drive/v3/about?fields=storageQuota,user"))
        if let token { request.setValue("Bearer \(token.value)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await transport.send(request)
        let body = (try? JSONDecoder().decode([String: JSONValue].self, from: data)) ?? [:]
        return (response.statusCode, body, response.value(forHTTPHeaderField: "WWW-Authenticate"))
    }
}

extension TestServer {
    /// Token-endpoint requests with `grant_type` from `clientID` seen so far.
    static func tokenRequests(client clientID: String, grantType: String) async throws -> Int {
        let (data, _) = try await transport.send(URLRequest(url: try url("/counters")))
        let counters = try JSONDecoder().decode([String: JSONValue].self, from: data)
        guard case .object(let byClient)? = counters["token_requests_by_client"],
            case .object(let grants)? = byClient[clientID]
        else { return 0 }
        return Int(grants[grantType]?.numberValue ?? 0)
    }

    /// Signs alice in with `clientID` through the browser and exchanges the code.
    static func signIn(
        client clientID: String = "bearer-trusted",
        scopes: [String] = ["openid", "email", "drive.readonly"]
    ) async throws -> AuthState {
        let server = try await discover()
        let request = try AuthorizationRequest(server: server, client: try client(clientID), scopes: scopes)
        let redirect = try await Browser.authorize(request.url)
        let response = try AuthorizationResponse(redirect: redirect, for: request)
        return try await AuthorizationServerClient(transport: transport).exchange(response, for: request)
    }

    static var driveAbout: URLRequest {
        get throws { URLRequest(url: try url("/drive/v3/about?fields=user")) }
    }
}
