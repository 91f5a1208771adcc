import Bearer
import BearerTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Loopback agent: what the listener accepts")
struct LoopbackRequestTests {
    let hosts: Set<String> = ["127.0.0.1:5000"]

    let expected = RedirectExpectation(state: "s-1", issuer: "https://auth.example.com", requiresIssuer: false)

    func classify(_ head: String, expecting: RedirectExpectation? = nil) -> LoopbackRequest {
        LoopbackRequest.classify(head, path: "/callback", hosts: hosts, expecting: expecting ?? expected)
    }

    @Test("The redirect with the registered Host and the request's state is the answer")
    func acceptsTheRedirect() {
        let head = "GET /callback?code=c&state=s-1 HTTP/1.1\r\nHost: 127.0.0.1:5000\r\nAccept: */*"
        #expect(classify(head) == .redirect(target: "/callback?code=c&state=s-1"))
        let error = "GET /callback?error=access_denied&state=s-1 HTTP/1.1\r\nhost: 127.0.0.1:5000"
        #expect(classify(error) == .redirect(target: "/callback?error=access_denied&state=s-1"))
    }

    @Test("An answer with the request's state ends the wait whatever its iss says; a repeated iss does not")
    func checksTheIssuer() {
        let host = " HTTP/1.1\r\nHost: 127.0.0.1:5000"
        let promised = RedirectExpectation(state: "s-1", issuer: "https://auth.example.com", requiresIssuer: true)
        let ending = [
            "/callback?error=access_denied&state=s-1&iss=https%3A%2F%2Fauth.example.com",
            "/callback?error=access_denied&state=s-1&iss=https%3A%2F%2Fevil.example",
            "/callback?code=c&state=s-1&iss=https%3A%2F%2Fevil.example",
            "/callback?error=access_denied&state=s-1",
            "/callback?code=c&state=s-1",
        ]
        for target in ending {
            #expect(classify("GET " + target + host, expecting: promised) == .redirect(target: target))
        }
        guard case .refuse = classify("GET /callback?code=c&state=s-1&iss=https%3A%2F%2Fauth.example.com&iss=x" + host)
        else {
            Issue.record("accepted a repeated iss")
            return
        }
    }

    @Test("Anything else is refused, so a local process or a web page cannot end the sign-in")
    func refusesTheRest() {
        let refused: [String] = [
            "GET /callback?error=access_denied HTTP/1.1\r\nHost: 127.0.0.1:5000",
            "GET /callback?error=access_denied&state=guess HTTP/1.1\r\nHost: 127.0.0.1:5000",
            "GET /callback?state=s-1&state=s-1&code=c HTTP/1.1\r\nHost: 127.0.0.1:5000",
            "GET /callback?code=c&state=s-1 HTTP/1.1\r\nHost: evil.example:5000",
            "GET /callback?code=c&state=s-1 HTTP/1.1\r\nHost: 127.0.0.1:5001",
            "GET /callback?code=c&state=s-1 HTTP/1.1",
            "GET /callback?code=c&state=s-1 HTTP/1.1\r\nHost: 127.0.0.1:5000\r\nHost: evil.example",
            "POST /callback?code=c&state=s-1 HTTP/1.1\r\nHost: 127.0.0.1:5000",
            "GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1:5000",
            "GET /callbackX?code=c&state=s-1 HTTP/1.1\r\nHost: 127.0.0.1:5000",
            "garbage",
            "",
        ]
        for head in refused {
            guard case .refuse = classify(head) else {
                Issue.record("accepted: \(head.debugDescription)")
                continue
            }
        }
    }
}

/// A raw connection to the listener, for clients that misbehave.
private struct RawClient {
    let descriptor: Int32

    init(port: UInt16) throws {
        #if canImport(Darwin)
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(connected == 0)
    }

    func write(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
    }

    func hangUp() {
        _ = close(descriptor)
    }
}

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

@Suite("Default browser agent: resuming from the app's URL handler")
struct DefaultBrowserAgentTests {
    func request() throws -> AuthorizationRequest {
        try AuthorizationRequest(server: Fixtures.server, client: Fixtures.publicClient, scopes: ["email"])
    }

    @Test("Only the pending authorization's redirect is handled; other URLs change nothing")
    func resumesOnlyItsRedirect() async throws {
        let opened = Recorder<URL>()
        let agent = DefaultBrowserAgent(opener: BrowserOpener { opened.record($0) })
        let request = try request()
        #expect(!agent.resume(with: Fixtures.redirect(for: request, query: "state=\(request.state)&code=c")))
        let presenting = Task { try await agent.present(request) }
        while opened.all.isEmpty { await Task.yield() }
        #expect(opened.all == [request.url])
        #expect(!agent.resume(with: Fixtures.url("com.example.app:/other?state=\(request.state)")))
        #expect(!agent.resume(with: Fixtures.url("com.other.app:/oauth2callback?state=\(request.state)")))
        #expect(!agent.resume(with: Fixtures.redirect(for: request, query: "state=guess&code=c")))
        let redirect = Fixtures.redirect(for: request, query: "state=\(request.state)&code=c")
        #expect(agent.resume(with: redirect))
        #expect(try await presenting.value == redirect)
        #expect(!agent.resume(with: redirect), "handled once")
    }

    @Test("A redirect that arrives while the browser is still being opened is kept")
    func redirectDuringOpen() async throws {
        let request = try request()
        let redirect = Fixtures.redirect(for: request, query: "state=\(request.state)&code=c")
        let holder = AgentHolder()
        let agent = DefaultBrowserAgent(
            opener: BrowserOpener { _ in #expect(holder.agent?.resume(with: redirect) == true) })
        holder.agent = agent
        #expect(try await agent.present(request) == redirect)
    }

    @Test("cancel(), a newer authorization and a cancelled task each end the pending one with CancellationError")
    func cancels() async throws {
        let opened = Recorder<URL>()
        let agent = DefaultBrowserAgent(opener: BrowserOpener { opened.record($0) })
        let first = Task { try await agent.present(try request()) }
        while opened.all.count < 1 { await Task.yield() }
        let second = Task { try await agent.present(try request()) }
        await #expect(throws: CancellationError.self) { try await first.value }
        while opened.all.count < 2 { await Task.yield() }
        agent.cancel()
        await #expect(throws: CancellationError.self) { try await second.value }
        let third = Task { try await agent.present(try request()) }
        while opened.all.count < 3 { await Task.yield() }
        third.cancel()
        await #expect(throws: CancellationError.self) { try await third.value }
    }

    @Test(
        "PendingRedirect accepts every answer with the right state, mix-ups included, and nothing without one")
    func pendingRedirect() throws {
        let request = try request()
        let pending = PendingRedirect(request)
        #expect(pending.accepts(Fixtures.redirect(for: request, query: "error=access_denied&state=\(request.state)")))
        #expect(pending.accepts(Fixtures.url("COM.EXAMPLE.APP:/oauth2callback?state=\(request.state)&code=c")))
        #expect(!pending.accepts(Fixtures.redirect(for: request, query: "error=access_denied")))
        // The state proves a mix-up's answer is this sign-in's: it ends the sign-in, as a typed error.
        let mixUp = Fixtures.redirect(
            for: request, query: "state=\(request.state)&code=c&iss=https%3A%2F%2Fevil.example")
        #expect(pending.accepts(mixUp))
        let error = #expect(throws: BearerError.self) { try AuthorizationResponse(redirect: mixUp, for: request) }
        #expect(error?.kind == .issuerMismatch)
        #expect(!pending.accepts(Fixtures.redirect(for: request, query: "state=\(request.state)&state=x")))
    }
}

private final class AgentHolder: @unchecked Sendable {
    var agent: DefaultBrowserAgent?
}

@Suite("In-app browser sheets: callbacks and errors")
struct WebAuthenticationDecisionTests {
    @Test("The callback comes from the redirect URI: a custom scheme, lowercased, or an https host and path")
    func callbacks() throws {
        let google = try Client.googleiOS(clientID: "123-abc.apps.googleusercontent.com")
        #expect(
            try WebAuthenticationCallback(redirectURI: try #require(google.redirectURI))
                == .customScheme("com.googleusercontent.apps.123-abc"))
        #expect(try WebAuthenticationCallback(redirectURI: Fixtures.url("MyApp:/cb")) == .customScheme("myapp"))
        let https = try WebAuthenticationCallback(redirectURI: Fixtures.url("https://App.Example.com/oauth/cb"))
        #expect(https == .https(host: "app.example.com", path: "/oauth/cb"))
        #expect((try? https.requireCustomScheme()) == nil)
        let loopback = #expect(throws: BearerError.self) {
            try WebAuthenticationCallback(redirectURI: Fixtures.url("http://127.0.0.1:5000/callback"))
        }
        #expect(loopback?.kind == .invalidConfiguration)
    }

    @Test("The sheet's completion: a redirect, the user's cancel, a cancelled task, and each failure")
    func completions() throws {
        let redirect = Fixtures.url("myapp:/cb?code=c&state=s")
        #expect(
            try WebAuthenticationCompletion.outcome(redirect: redirect, error: nil, taskCancelled: false) == redirect)
        let domain = WebAuthenticationCompletion.errorDomain
        let cancelled = NSError(domain: domain, code: 1)
        #expect(throws: CancellationError.self, "the user's cancel") {
            try WebAuthenticationCompletion.outcome(redirect: nil, error: cancelled, taskCancelled: false)
        }
        #expect(throws: CancellationError.self) {
            try WebAuthenticationCompletion.outcome(redirect: nil, error: cancelled, taskCancelled: true)
        }
        for (code, words) in [(2, "no window"), (3, "not a visible window"), (99, "failed")] {
            let error = #expect(throws: BearerError.self) {
                try WebAuthenticationCompletion.outcome(
                    redirect: nil, error: NSError(domain: domain, code: code), taskCancelled: false)
            }
            #expect(error?.kind == .agentFailed)
            #expect(error?.reason.contains(words) == true, "\(code)")
            #expect((error?.underlyingError as? NSError)?.code == code)
        }
        let other = #expect(throws: BearerError.self) {
            try WebAuthenticationCompletion.outcome(
                redirect: nil, error: NSError(domain: "other", code: 1), taskCancelled: false)
        }
        #expect(other?.kind == .agentFailed, "code 1 of another domain is not a cancel")
        #expect(throws: BearerError.self) {
            try WebAuthenticationCompletion.outcome(redirect: nil, error: nil, taskCancelled: false)
        }
    }
}

@Suite("In-app browser sheets: one result per showing")
struct AgentAttemptTests {
    func outcome(of attempt: AgentAttempt) async throws -> URL {
        try await withCheckedThrowingContinuation { attempt.attach($0) }
    }

    @Test("The sheet's completion, from any thread, is delivered once; later ones are ignored")
    func completionOnce() async throws {
        let attempt = AgentAttempt()
        let redirect = Fixtures.url("myapp:/cb?code=c&state=s")
        Thread { attempt.finish(redirect: redirect, error: nil) }.start()
        #expect(try await outcome(of: attempt) == redirect)
        attempt.finish(redirect: nil, error: NSError(domain: WebAuthenticationCompletion.errorDomain, code: 1))
        attempt.cancel()
        #expect(attempt.isFinished)
    }

    @Test("A task cancelled before or while the sheet shows gets CancellationError, whatever the sheet says later")
    func cancellation() async throws {
        let early = AgentAttempt()
        early.cancel()
        #expect(early.isFinished, "the sheet need not be shown")
        await #expect(throws: CancellationError.self) { try await outcome(of: early) }

        let late = AgentAttempt()
        let waiting = Task { try await outcome(of: late) }
        late.cancel()
        late.finish(redirect: nil, error: NSError(domain: WebAuthenticationCompletion.errorDomain, code: 1))
        await #expect(throws: CancellationError.self) { try await waiting.value }

        let answeredAfter = AgentAttempt()
        answeredAfter.cancel()
        answeredAfter.finish(redirect: Fixtures.url("myapp:/cb?code=c&state=s"), error: nil)
        await #expect(throws: CancellationError.self, "a redirect after the cancel is ignored") {
            try await outcome(of: answeredAfter)
        }
    }

    @Test("A user's cancel is CancellationError; a sheet that cannot start is a typed failure")
    func userCancelAndFailure() async throws {
        let closed = AgentAttempt()
        closed.finish(redirect: nil, error: NSError(domain: WebAuthenticationCompletion.errorDomain, code: 1))
        await #expect(throws: CancellationError.self) { try await outcome(of: closed) }
        let failed = AgentAttempt()
        failed.fail(BearerError.agentFailed("could not start"))
        let error = await #expect(throws: BearerError.self) { try await outcome(of: failed) }
        #expect(error?.kind == .agentFailed)
    }
}
