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
