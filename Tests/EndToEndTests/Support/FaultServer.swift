import Bearer
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The misbehaving token endpoint of Server/fault_server.py, started for one test suite.
final class FaultServer: Sendable {
    private let script: ServerScript
    /// The server's base URL.
    var base: URL { script.base }

    init() async throws {
        script = try await ServerScript("fault_server.py")
    }

    /// Stops the server process.
    func stop() {
        script.stop()
    }

    private func call(_ method: String, _ path: String) async throws -> [String: JSONValue] {
        var request = URLRequest(url: try #require(URL(string: base.absoluteString + path)))
        request.httpMethod = method
        let (data, _) = try await TestServer.transport.send(request)
        return try JSONDecoder().decode([String: JSONValue].self, from: data)
    }

    func inject(_ mode: String) async throws {
        _ = try await call("POST", "/control/fault?mode=\(mode)")
    }

    /// How many token requests the server has had, and how many mode `hold` keeps waiting now.
    func stats() async throws -> (tokenRequests: Int, held: Int) {
        let answer = try await call("GET", "/control/stats")
        return (
            try #require(answer["token_requests"]?.numberValue.map { Int($0) }),
            try #require(answer["held"]?.numberValue.map { Int($0) })
        )
    }

    /// Lets the token requests that mode `hold` keeps waiting go on.
    func release() async throws {
        _ = try await call("POST", "/control/release")
    }

    func isValid(_ refreshToken: RefreshToken?) async throws -> Bool {
        guard let refreshToken else { return false }
        let answer = try await call("GET", "/control/valid?token=\(FormEncoding.encode(refreshToken.value))")
        return answer["valid"] == true
    }

    /// A session on this server whose access token has expired, with a valid refresh token.
    func expiredSession() async throws -> AuthState {
        let pair = try await call("POST", "/control/issue")
        let token = try #require(pair["refresh_token"]?.stringValue)
        return AuthState(
            server: AuthorizationServer(
                issuer: base,
                authorizationEndpoint: base.appendingPathComponent("authorize"),
                tokenEndpoint: base.appendingPathComponent("token"),
                allowsInsecureLoopback: true
            ),
            client: Client(id: "fault-client", redirectURI: base.appendingPathComponent("callback")),
            accessToken: AccessToken(try #require(pair["access_token"]?.stringValue)),
            accessTokenExpiresAt: Date(timeIntervalSince1970: 0),
            refreshToken: RefreshToken(token),
            grantedScopes: ["email"]
        )
    }
}
