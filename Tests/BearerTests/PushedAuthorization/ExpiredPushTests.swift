import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore

/// Shows each request after `delay` seconds of the test clock (a user who opened the address
/// late), and answers with the next of `redirects`: an error, or `nil` for a code.
final class LateAgent: AuthorizationAgent, @unchecked Sendable {
    private let clock: TestClock
    private let delay: TimeInterval
    private let transport: RecordingTransport
    private let lock = NSLock()
    private var redirects: [String?]
    private var shownRequests: [AuthorizationRequest] = []

    init(clock: TestClock, delay: TimeInterval, transport: RecordingTransport, redirects: [String?]) {
        self.clock = clock
        self.delay = delay
        self.transport = transport
        self.redirects = redirects
    }

    /// The requests shown so far.
    var shown: [AuthorizationRequest] { lock.withLock { shownRequests } }

    func present(_ request: AuthorizationRequest) async throws -> URL {
        clock.advance(by: delay)
        let error = lock.withLock {
            shownRequests.append(request)
            return redirects.isEmpty ? nil : redirects.removeFirst()
        }
        guard let error else {
            await transport.enqueue(PushedAuthorizationTests.tokens)
            return Fixtures.redirect(for: request, query: "state=\(request.state)&code=the-code")
        }
        return Fixtures.redirect(for: request, query: "state=\(request.state)&error=\(error)")
    }
}

/// A sign-in whose page is opened after its pushed request's `expires_in` (RFC 9126 §2.2) pushes
/// a new request and shows it once more; every other refusal ends the sign-in as before.
@Suite("Pushed authorization requests: pushed again when the reference expired before the page opened")
struct ExpiredPushTests {
    typealias Outcome = (
        result: Result<AuthSession, any Error>, requests: [TransportRequest], shown: [AuthorizationRequest]
    )

    static func pushed(_ number: Int, expiresIn: Int = 60) -> RecordingTransport.Reply {
        .json(201, #"{"request_uri":"urn:ietf:params:oauth:request_uri:push-\#(number)","expires_in":\#(expiresIn)}"#)
    }

    static func signIn(
        delay: TimeInterval, redirects: [String?], pushes: Int = 2,
        server: AuthorizationServer = PushedAuthorizationTests.server()
    ) async -> Outcome {
        let clock = TestClock(Fixtures.epoch)
        let transport = RecordingTransport(replies: (1...pushes).map { pushed($0) })
        let agent = LateAgent(clock: clock, delay: delay, transport: transport, redirects: redirects)
        let result: Result<AuthSession, any Error>
        do {
            result = .success(
                try await AuthSession.signIn(
                    to: server, as: Fixtures.publicClient, scopes: ["openid", "email"], using: agent,
                    store: InMemorySessionStore(), transport: transport, clock: clock.wallClock,
                    configuration: AuthSession.Configuration()))
        } catch {
            result = .failure(error)
        }
        return (result, await transport.requests, agent.shown)
    }

    @Test(
        "A page refused after the reference expired is pushed again with new state, PKCE and nonce, and signs in",
        arguments: ["invalid_request", "invalid_request_uri"])
    func pushesAgainAfterExpiry(error: String) async throws {
        let outcome = await Self.signIn(delay: 61, redirects: [error, nil])
        _ = try outcome.result.get()
        let urls = outcome.requests.map(\.url)
        #expect(
            urls == [PushedAuthorizationTests.parURL, PushedAuthorizationTests.parURL, Fixtures.server.tokenEndpoint])
        try #require(outcome.shown.count == 2)
        let (first, second) = (outcome.shown[0], outcome.shown[1])
        #expect(first.pushed?.requestURI.hasSuffix("push-1") == true)
        #expect(second.pushed?.requestURI.hasSuffix("push-2") == true)
        #expect(first.state != second.state && first.nonce != second.nonce)
        #expect(first.pkce.challenge != second.pkce.challenge)
        #expect(outcome.requests[1].formBody["state"] == second.state)
        #expect(outcome.requests[2].formBody["code_verifier"] == second.pkce.verifier)
    }

    @Test("invalid_request_uri means the reference is no longer good even before its expires_in: pushed again")
    func invalidRequestURIBeforeExpiry() async throws {
        let outcome = await Self.signIn(delay: 1, redirects: ["invalid_request_uri", nil])
        _ = try outcome.result.get()
        #expect(outcome.shown.count == 2)
    }

    @Test("invalid_request before the reference expired is the server's refusal: no second push")
    func invalidRequestBeforeExpiryEnds() async throws {
        let outcome = await Self.signIn(delay: 1, redirects: ["invalid_request"])
        guard case .failure(let error) = outcome.result else {
            Issue.record("the sign-in succeeded")
            return
        }
        #expect((error as? OAuthError)?.code == .invalidRequest, "\(error)")
        #expect(outcome.requests.map(\.url) == [PushedAuthorizationTests.parURL])
        #expect(outcome.shown.count == 1)
    }

    @Test("The second push is the last: a second late page ends the sign-in with the server's error")
    func pushesAgainOnce() async throws {
        let outcome = await Self.signIn(delay: 61, redirects: ["invalid_request_uri", "invalid_request_uri"])
        guard case .failure(let error) = outcome.result else {
            Issue.record("the sign-in succeeded")
            return
        }
        #expect((error as? OAuthError)?.code == .invalidRequestURI, "\(error)")
        #expect(outcome.requests.map(\.url) == [PushedAuthorizationTests.parURL, PushedAuthorizationTests.parURL])
        #expect(outcome.shown.count == 2)
    }

    @Test("A request that was not pushed is never pushed because of a refusal")
    func unpushedRequestNotRetried() async throws {
        let outcome = await Self.signIn(
            delay: 61, redirects: ["invalid_request_uri"], server: PushedAuthorizationTests.server(endpoint: nil))
        guard case .failure(let error) = outcome.result else {
            Issue.record("the sign-in succeeded")
            return
        }
        #expect((error as? OAuthError)?.code == .invalidRequestURI)
        #expect(outcome.requests.isEmpty)
        #expect(outcome.shown.count == 1)
    }
}
