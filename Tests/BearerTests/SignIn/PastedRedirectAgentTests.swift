import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Fleet) @_spi(Internals) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Lines handed to the agent as a user would paste them, and the agent's reports.
private final class PasteBoard: @unchecked Sendable {
    let lines: AsyncStream<String>
    let paste: AsyncStream<String>.Continuation
    private let lock = NSLock()
    private var reported: [PastedRedirectAgent.Event] = []

    init() {
        (lines, paste) = AsyncStream.makeStream(of: String.self)
    }

    func next() async -> String? {
        var iterator = lines.makeAsyncIterator()
        return await iterator.next()
    }

    func report(_ event: PastedRedirectAgent.Event) {
        lock.withLock { reported.append(event) }
    }

    var events: [PastedRedirectAgent.Event] { lock.withLock { reported } }
}

@Suite("Pasted redirect agent: a browser on another machine")
struct PastedRedirectAgentTests {
    private func request(for agent: PastedRedirectAgent) throws -> AuthorizationRequest {
        try AuthorizationRequest(
            server: Fixtures.server, client: Fixtures.publicClient, scopes: ["email"],
            redirectURI: try redirectURI(of: agent))
    }

    /// The agent's redirect URI, as every agent's optional one is read.
    private func redirectURI(of agent: some AuthorizationAgent) throws -> URL {
        let uri: URL? = agent.redirectURI
        return try #require(uri)
    }

    private func agent(_ board: PasteBoard, opener: BrowserOpener = BrowserOpener { _ in }) throws
        -> PastedRedirectAgent
    {
        try PastedRedirectAgent(
            timeout: .seconds(30), opener: opener, nextPaste: { await board.next() }, report: board.report)
    }

    @Test("Only the pending sign-in's redirect passes, with a refusal that says what was expected")
    func checksAsTheListenerDoes() throws {
        let board = PasteBoard()
        let agent = try agent(board)
        let request = try request(for: agent)
        let redirect = try redirectURI(of: agent).absoluteString
        let answer = "\(redirect)?code=c&state=\(request.state)"
        #expect(try PastedRedirectAgent.check("  \(answer)\n", for: request).absoluteString == answer)
        let denied = "\(redirect)?error=access_denied&state=\(request.state)"
        #expect(try PastedRedirectAgent.check(denied, for: request).absoluteString == denied)

        let expected = try redirectURI(of: agent)
        let cases: [(String, PastedRedirectAgent.Refusal)] = [
            ("hello", .notAnAddress(expected: expected)),
            ("https://attacker.example/callback?code=c&state=\(request.state)", .otherAddress(expected: expected)),
            ("http://127.0.0.1:1/callback?code=c&state=\(request.state)", .otherAddress(expected: expected)),
            ("\(redirect)/more?code=c&state=\(request.state)", .otherAddress(expected: expected)),
            ("\(redirect)?code=c&state=other", .otherSignIn),
            ("\(redirect)?code=c", .otherSignIn),
            ("\(redirect)?code=c&state=\(request.state)&state=\(request.state)", .otherSignIn),
        ]
        for (line, refusal) in cases {
            #expect(throws: refusal, "\(line)") { try PastedRedirectAgent.check(line, for: request) }
            #expect(!refusal.description.contains("code=c"))
        }
        // An answer with the request's state but another issuer is a mix-up: like the listener, the
        // agent hands it on, and the sign-in ends at once with a typed error, exchanging nothing.
        let mixUp = try PastedRedirectAgent.check(
            "\(redirect)?code=c&state=\(request.state)&iss=https%3A%2F%2Fevil.example", for: request)
        let error = #expect(throws: BearerError.self) { try AuthorizationResponse(redirect: mixUp, for: request) }
        #expect(error?.kind == .issuerMismatch)
        #expect(PastedRedirectAgent.Refusal.otherAddress(expected: expected).description.contains(redirect))
    }

    @Test("Refused lines are reported and the wait goes on; the right one wins and closes the listener")
    func pasteWins() async throws {
        let board = PasteBoard()
        let agent = try agent(board)
        let request = try request(for: agent)
        let redirect = try redirectURI(of: agent)
        board.paste.yield("https://attacker.example/callback?code=c&state=\(request.state)")
        board.paste.yield("")
        board.paste.yield("\(redirect.absoluteString)?code=c&state=\(request.state)")
        let url = try await agent.present(request)
        #expect(try AuthorizationResponse(redirect: url, for: request).code.value == "c")
        #expect(board.events == [.refused(.otherAddress(expected: redirect)), .answeredByPaste])
        // The other answer, through the listener, is refused: it is closed.
        let late = Fixtures.url("\(redirect.absoluteString)?code=c&state=\(request.state)")
        await #expect(throws: (any Error).self) {
            try await URLSessionTransport(timeout: 5).send(URLRequest(url: late))
        }
        let error = await #expect(throws: BearerError.self) { try await agent.present(request) }
        #expect(error?.kind == .invalidConfiguration, "one sign-in per agent")
    }

    @Test("The listener's answer wins over a paste still to come, whose wait is given up")
    func listenerWins() async throws {
        let board = PasteBoard()
        let agent = try agent(
            board,
            opener: BrowserOpener { url in
                let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
                let state = try #require(items.first { $0.name == "state" }?.value)
                let redirect = try #require(items.first { $0.name == "redirect_uri" }?.value)
                _ = try await URLSessionTransport().send(
                    URLRequest(url: Fixtures.url(redirect + "?code=l&state=\(state)")))
            })
        let request = try request(for: agent)
        let url = try await agent.present(request)
        #expect(try AuthorizationResponse(redirect: url, for: request).code.value == "l")
        #expect(board.events == [.answeredAtListener])
    }

    @Test("A request for another redirect URI is refused before anything is shown")
    func otherRequest() async throws {
        let board = PasteBoard()
        let agent = try agent(board, opener: BrowserOpener { _ in Issue.record("shown") })
        let elsewhere = try AuthorizationRequest(server: Fixtures.server, client: Fixtures.publicClient, scopes: [])
        let error = await #expect(throws: BearerError.self) { try await agent.present(elsewhere) }
        #expect(error?.kind == .invalidConfiguration)
    }
}
