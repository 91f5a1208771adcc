import Bearer
import BearerTestSupport
import Foundation
import Testing

@testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How an answer that carries the request's `state` ends a sign-in: at once, with the server's
/// error or a typed issuer error, and with a browser page that says so.
@Suite("A sign-in's answer ends it at once, whatever it says")
struct SignInAnswerTests {
    static let issuer = "https://auth.example.com"
    static let promised = RedirectExpectation(state: "s-1", issuer: issuer, requiresIssuer: true)
    static let unpromised = RedirectExpectation(state: "s-1", issuer: issuer, requiresIssuer: false)
    static let iss = "iss=https%3A%2F%2Fauth.example.com"
    static let evil = "iss=https%3A%2F%2Fevil.example"

    /// (query, expectation, verdict)
    static let verdicts: [(String, RedirectExpectation, RedirectExpectation.Verdict)] = [
        ("error=access_denied&state=s-1", promised, .errorWithoutIssuer),
        ("error=server_error&error_description=x&state=s-1", promised, .errorWithoutIssuer),
        ("error=access_denied&state=s-1&\(iss)", promised, .answer),
        ("error=access_denied&state=s-1", unpromised, .answer),
        ("code=c&state=s-1&\(iss)", promised, .answer),
        ("code=c&state=s-1", unpromised, .answer),
        ("code=c&state=s-1", promised, .failsIssuerCheck),
        ("error=access_denied&code=c&state=s-1", promised, .failsIssuerCheck),
        ("code=c&state=s-1&\(evil)", promised, .failsIssuerCheck),
        ("code=c&state=s-1&\(evil)", unpromised, .failsIssuerCheck),
        ("error=access_denied&state=s-1&\(evil)", unpromised, .failsIssuerCheck),
        ("error=access_denied&state=other", promised, .notThisSignIn),
        ("error=access_denied", promised, .notThisSignIn),
        ("code=c&state=s-1&state=s-1", unpromised, .notThisSignIn),
        ("code=c&state=s-1&\(iss)&\(iss)", promised, .notThisSignIn),
    ]

    @Test("Each answer's verdict", arguments: verdicts.indices)
    func verdict(index: Int) {
        let (query, expectation, verdict) = Self.verdicts[index]
        #expect(expectation.verdict(query: query) == verdict, "\(query)")
    }

    static func server(promisesIssuer: Bool) -> AuthorizationServer {
        var server = Fixtures.server
        server.sendsIssuerInAuthorizationResponse = promisesIssuer
        return server
    }

    @Test(
        "A declined consent without iss is the server's error, from a server that promises iss or not",
        arguments: [true, false])
    func declineWithoutIssuer(promisesIssuer: Bool) throws {
        let request = try Fixtures.request(server: Self.server(promisesIssuer: promisesIssuer))
        for code in ["access_denied", "server_error"] {
            let redirect = Fixtures.redirect(for: request, query: "error=\(code)&state=\(request.state)")
            let error = #expect(throws: OAuthError.self) { try AuthorizationResponse(redirect: redirect, for: request) }
            #expect(error?.code.rawValue == code)
        }
    }

    @Test("A wrong iss is a mix-up error, and a code without the promised iss is refused, never exchanged")
    func issuerFailures() throws {
        let request = try Fixtures.request(server: Self.server(promisesIssuer: true))
        let cases: [(String, BearerError.Kind)] = [
            ("code=c&state=\(request.state)&\(Self.evil)", .issuerMismatch),
            ("error=access_denied&state=\(request.state)&\(Self.evil)", .issuerMismatch),
            ("code=c&state=\(request.state)", .invalidRedirect),
            ("error=access_denied&code=c&state=\(request.state)", .invalidRedirect),
        ]
        for (query, kind) in cases {
            let error = #expect(throws: BearerError.self) {
                try AuthorizationResponse(redirect: Fixtures.redirect(for: request, query: query), for: request)
            }
            #expect(error?.kind == kind, "\(query)")
        }
        let google = try Fixtures.request(server: Self.server(promisesIssuer: false))
        let sent = Fixtures.redirect(for: google, query: "code=c&state=\(google.state)&\(Self.iss)")
        #expect(try AuthorizationResponse(redirect: sent, for: google).issuer == Self.issuer)
    }

    @Test(
        "The listener ends the wait at once on a decline or a mix-up, and tells the browser so",
        arguments: [
            ("error=access_denied&state=s-1", "declined"),
            ("code=c&state=s-1&\(evil)", "did not come from the expected server"),
            ("code=c&state=s-1&\(iss)", "received the answer"),
        ])
    func listenerPages(query: String, page: String) async throws {
        let listener = try LoopbackRedirectListener()
        async let redirect = listener.waitForRedirect(expecting: Self.promised, timeout: .seconds(60))
        let url = Fixtures.url("http://127.0.0.1:\(listener.port)/callback?\(query)")
        let (body, response) = try await URLSessionTransport().send(URLRequest(url: url))
        #expect(response.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains(page))
        #expect(try await redirect == url)
    }

    static func canConnect(to port: UInt16) -> Bool {
        #if canImport(Darwin)
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    @Test("The port closes once the answer is returned, on a timeout and on a cancel, and reopens for the next wait")
    func portClosesAfterEachWait() async throws {
        let listener = try LoopbackRedirectListener()
        let port = listener.port
        #expect(Self.canConnect(to: port))
        async let answer = listener.waitForRedirect(expecting: Self.unpromised, timeout: .seconds(60))
        _ = try await URLSessionTransport().send(
            URLRequest(url: Fixtures.url("http://127.0.0.1:\(port)/callback?code=c&state=s-1")))
        _ = try await answer
        #expect(!listener.isListening)
        #expect(!listener.isListening, "closed after the answer")
        await #expect(throws: BearerError.self) {
            try await listener.waitForRedirect(expecting: Self.unpromised, timeout: .milliseconds(100))
        }
        #expect(!listener.isListening, "closed after a timeout")
        let waiting = Task { try await listener.waitForRedirect(expecting: Self.unpromised, timeout: .seconds(60)) }
        while !listener.isListening { await Task.yield() }
        #expect(Self.canConnect(to: port), "bound again for the next wait")
        waiting.cancel()
        _ = try? await waiting.value
        #expect(!listener.isListening, "closed after a cancel")
    }

    @Test("A second sign-in on a busy agent is refused before anything is opened")
    func busyAgentOpensNothing() async throws {
        let opened = Recorder<URL>()
        let agent = try LoopbackAgent(timeout: .seconds(60), opener: BrowserOpener { url in opened.record(url) })
        let redirectURI = try #require(agent.redirectURI)
        let request = try AuthorizationRequest(
            server: Fixtures.server, client: Fixtures.publicClient, scopes: ["email"], redirectURI: redirectURI)
        let first = Task { try await agent.present(request) }
        while opened.all.isEmpty { await Task.yield() }
        let error = await #expect(throws: BearerError.self) { try await agent.present(request) }
        #expect(error?.kind == .invalidConfiguration)
        #expect(opened.all.count == 1, "the second sign-in opened no page")
        first.cancel()
        _ = try? await first.value
    }
}
