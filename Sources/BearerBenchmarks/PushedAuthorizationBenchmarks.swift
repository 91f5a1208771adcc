import Bearer
import BearerCore
import Foundation

/// A sign-in whose request is pushed first (RFC 9126) against the same sign-in without, on an
/// in-process server: the requests each sends, and their time.
enum PushedAuthorizationBenchmarks {
    /// The authorization server: answers a push with a `request_uri`, the token endpoint with
    /// tokens, and counts what it is sent.
    final class CountingServer: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var sent = 0

        var requests: Int { lock.withLock { sent } }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            lock.withLock { sent += 1 }
            let body =
                request.url.path.hasSuffix("/par")
                ? #"{"request_uri":"urn:ietf:params:oauth:request_uri:bench","expires_in":60}"#
                : #"{"access_token":"bench-at","token_type":"Bearer","expires_in":3600,"refresh_token":"bench-rt"}"#
            return TransportResponse(
                status: request.url.path.hasSuffix("/par") ? 201 : 200,
                headerFields: ["Content-Type": "application/json", "Cache-Control": "no-store"], body: Data(body.utf8))
        }
    }

    /// Approves at once: the redirect carries the request's `state` and a code.
    struct ApprovingAgent: AuthorizationAgent {
        func present(_ request: AuthorizationRequest) async throws -> URL {
            guard let url = URL(string: request.redirectURI.absoluteString + "?state=\(request.state)&code=bench")
            else { throw BenchmarkFailure("bad redirect") }
            return url
        }
    }

    static func signIn(repeats: Int) async throws -> [Figure] {
        guard let issuer = URL(string: "https://auth.example.com"),
            let authorize = URL(string: "https://auth.example.com/authorize"),
            let token = URL(string: "https://auth.example.com/token"),
            let par = URL(string: "https://auth.example.com/par"),
            let redirect = URL(string: "com.example.app:/callback")
        else { throw BenchmarkFailure("bad URL") }
        var server = AuthorizationServer(issuer: issuer, authorizationEndpoint: authorize, tokenEndpoint: token)
        server.pushedAuthorizationRequestEndpoint = par
        let client = Client(id: "bench", redirectURI: redirect)
        let count = 200

        func run(_ use: PushedAuthorizationUse) async throws -> (seconds: [Double], requestsPerSignIn: Double) {
            var configuration = AuthSession.Configuration()
            configuration.pushedAuthorization = use
            let transport = CountingServer()
            var seconds: [Double] = []
            for _ in 0..<repeats {
                seconds.append(
                    try await Measure.seconds {
                        for _ in 0..<count {
                            _ = try await AuthSession.signIn(
                                to: server, as: client, scopes: ["email"], using: ApprovingAgent(),
                                store: InMemorySessionStore(), transport: transport, configuration: configuration)
                        }
                    })
            }
            return (seconds, Double(transport.requests) / Double(count * repeats))
        }
        let pushed = try await run(.required)
        let plain = try await run(.never)
        let pushedTime = Measure.median(pushed.seconds) / Double(count) * 1e6
        let plainTime = Measure.median(plain.seconds) / Double(count) * 1e6
        let extra = pushed.requestsPerSignIn - plain.requestsPerSignIn
        return [
            Figure(
                name: "requests a sign-in sends with PAR, beyond those without", value: extra, unit: "requests",
                baseline: plain.requestsPerSignIn, baselineName: "requests a sign-in sends without PAR",
                ratio: pushed.requestsPerSignIn / plain.requestsPerSignIn, target: "exactly one more",
                meetsTarget: extra == 1),
            Figure(
                name: "a sign-in with PAR, in-process server", value: pushedTime, unit: "µs", baseline: plainTime,
                baselineName: "the same sign-in without PAR (µs)", ratio: pushedTime / plainTime, target: nil,
                meetsTarget: nil),
        ]
    }
}
