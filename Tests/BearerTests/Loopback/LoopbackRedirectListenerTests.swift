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

@Suite("Loopback agent: the listener")
struct LoopbackListenerTests {
    static let expected = RedirectExpectation(state: "s-1", issuer: "https://auth.example.com", requiresIssuer: false)

    @Test("Refused requests get an answer and the wait goes on until the real redirect, which never shows the code")
    func keepsWaiting() async throws {
        let listener = try LoopbackRedirectListener()
        let base = "http://127.0.0.1:\(listener.port)"
        #expect(listener.redirectURI.absoluteString == base + "/callback")
        async let redirect = listener.waitForRedirect(expecting: Self.expected, timeout: .seconds(60))
        let transport = URLSessionTransport()
        #expect(try await transport.send(URLRequest(url: Fixtures.url(base + "/favicon.ico"))).1.statusCode == 404)
        let forged = try await transport.send(URLRequest(url: Fixtures.url(base + "/callback?error=x&state=guess")))
        #expect(forged.1.statusCode == 400)
        var post = URLRequest(url: Fixtures.url(base + "/callback?code=c&state=s-1"))
        post.httpMethod = "POST"
        #expect(try await transport.send(post).1.statusCode == 400)
        let (page, response) = try await transport.send(
            URLRequest(url: Fixtures.url(base + "/callback?code=the-code&state=s-1")))
        #expect(response.statusCode == 200)
        let text = String(decoding: page, as: UTF8.self)
        #expect(text.contains("close this tab"))
        #expect(!text.contains("the-code"))
        #expect(try await redirect.absoluteString == base + "/callback?code=the-code&state=s-1")
    }

    @Test("Clients that hold connections open or send slowly do not keep the browser's redirect out")
    func heldConnectionsDoNotBlock() async throws {
        let listener = try LoopbackRedirectListener()
        async let redirect = listener.waitForRedirect(expecting: Self.expected, timeout: .seconds(120))
        var held: [RawClient] = []
        defer {
            for client in held { client.hangUp() }
        }
        for _ in 0..<(LoopbackRedirectListener.maximumConnections + 8) {
            let client = try RawClient(port: listener.port)
            client.write("G")
            held.append(client)
        }
        let url = Fixtures.url("http://127.0.0.1:\(listener.port)/callback?code=c&state=s-1")
        #expect(try await URLSessionTransport().send(URLRequest(url: url)).1.statusCode == 200)
        #expect(try await redirect == url)
    }

    @Test("Gives up at the timeout, and a cancelled task stops the wait")
    func timeoutAndCancellation() async throws {
        let listener = try LoopbackRedirectListener()
        let error = await #expect(throws: BearerError.self) {
            try await listener.waitForRedirect(expecting: Self.expected, timeout: .milliseconds(300))
        }
        #expect(error?.kind == .timedOut)
        let waiting = Task { try await listener.waitForRedirect(expecting: Self.expected, timeout: .seconds(3600)) }
        // A refused request proves the wait is running before it is cancelled.
        let probe = Fixtures.url("http://127.0.0.1:\(listener.port)/callback?state=other")
        while (try? await URLSessionTransport().send(URLRequest(url: probe)))?.1.statusCode != 400 {
            await Task.yield()
        }
        let second = await #expect(throws: BearerError.self) {
            try await listener.waitForRedirect(expecting: Self.expected, timeout: .seconds(1))
        }
        #expect(second?.kind == .invalidConfiguration, "one wait at a time")
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test("A port in use is a clear error")
    func portInUse() throws {
        let first = try LoopbackRedirectListener()
        let error = #expect(throws: BearerError.self) { try LoopbackRedirectListener(port: first.port) }
        #expect(error?.reason.contains("\(first.port)") == true)
    }

    @Test("The agent opens the page, then returns the redirect; a request for another address is refused")
    func agentOpensAndWaits() async throws {
        let agent = try LoopbackAgent(
            opener: BrowserOpener { url in
                let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
                let items = components.queryItems ?? []
                let state = try #require(items.first { $0.name == "state" }?.value)
                let redirect = try #require(items.first { $0.name == "redirect_uri" }?.value)
                _ = try await URLSessionTransport().send(
                    URLRequest(url: Fixtures.url(redirect + "?code=c&state=\(state)")))
            })
        let redirectURI = try #require(agent.redirectURI)
        #expect(redirectURI.absoluteString == "http://127.0.0.1:\(agent.port)/callback")
        let request = try AuthorizationRequest(
            server: Fixtures.server, client: Fixtures.publicClient, scopes: ["email"], redirectURI: redirectURI)
        let url = try await agent.present(request)
        #expect(try AuthorizationResponse(redirect: url, for: request).code.value == "c")
        let elsewhere = try AuthorizationRequest(server: Fixtures.server, client: Fixtures.publicClient, scopes: [])
        let error = await #expect(throws: BearerError.self) { try await agent.present(elsewhere) }
        #expect(error?.kind == .invalidConfiguration)
    }
}
