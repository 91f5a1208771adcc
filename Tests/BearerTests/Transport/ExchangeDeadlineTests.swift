import Bearer
import BearerTestSupport
import Foundation
import Testing

@testable import BearerCore

/// A store whose lock can outlive its connection only for a while bounds the token requests made
/// under it: past the deadline the request is given up, and while the store moves the deadline
/// on, the request runs to its answer.
@Suite("ExchangeDeadline: token requests under a lease")
struct ExchangeDeadlineTests {
    private static func staleSession(
        replyingAfter delay: Duration, through gate: GatedTransport? = nil
    ) async throws -> (AuthSession, RecordingTransport) {
        let clock = TestClock(Fixtures.epoch)
        let store = InMemorySessionStore()
        try await store.save(
            AuthState(
                server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at-old"),
                accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(-60), refreshToken: RefreshToken("rt-old"),
                grantedScopes: ["email"]),
            key: "k")
        let transport = RecordingTransport(
            replies: [
                .json(
                    200, #"{"access_token":"at-new","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-new"}"#)
            ],
            responseDelay: delay)
        gate?.base = transport
        let session = try #require(
            try await AuthSession.restore(
                key: "k", from: store, transport: gate.map { $0 as any HTTPTransport } ?? transport,
                clock: clock.wallClock))
        return (session, transport)
    }

    @Test("A refresh still unanswered at the deadline is given up as a network error; the session keeps its grant")
    func givenUpAtDeadline() async throws {
        let (session, transport) = try await Self.staleSession(replyingAfter: .seconds(30))
        let deadline = ExchangeDeadline(.now + .milliseconds(200))
        let error = await #expect(throws: BearerError.self) {
            try await ExchangeDeadline.$current.withValue(deadline) { try await session.validAccessToken() }
        }
        #expect(error?.kind == .network)
        #expect("\(String(describing: error))".contains("claim"), "\(String(describing: error))")
        #expect(await transport.requests.count == 1)
        #expect(await session.state.refreshToken == RefreshToken("rt-old"), "the grant is kept")
    }

    @Test("A deadline moved on while the request runs lets it finish, past the first deadline")
    func extendedDeadlineLetsItFinish() async throws {
        let gated = GatedTransport()
        let (session, _) = try await Self.staleSession(replyingAfter: .zero, through: gated)
        // The deadline's clock runs with the real one, and jumps when the test says.
        let skew = Recorder<Duration>()
        let now: @Sendable () -> ContinuousClock.Instant = { .now + (skew.all.last ?? .zero) }
        let first = now() + .seconds(60)
        let deadline = ExchangeDeadline(first, now: now)
        let refresh = Task {
            try await ExchangeDeadline.$current.withValue(deadline) { try await session.validAccessToken() }
        }
        await gated.waitForRequest()
        deadline.extend(to: now() + .seconds(600))
        // The first deadline is now well past; the watcher looks every quarter second meanwhile.
        skew.record(.seconds(120))
        try await Task.sleep(for: .milliseconds(600))
        gated.answer()
        #expect(try await refresh.value == AccessToken("at-new"))
        #expect(now() > first)
    }

    @Test("A deadline only ever moves later")
    func onlyLater() {
        let start = ContinuousClock.now
        let deadline = ExchangeDeadline(start + .seconds(10))
        deadline.extend(to: start + .seconds(1))
        #expect(deadline.instant == start + .seconds(10))
        deadline.extend(to: start + .seconds(20))
        #expect(deadline.instant == start + .seconds(20))
    }
}

/// Holds each request until the test answers it, and tells the test when one arrived.
private final class GatedTransport: HTTPTransport, @unchecked Sendable {
    // Unchecked: `base` is set once, before the first request.
    var base: RecordingTransport?
    private let arrivals = AsyncStream<Void>.makeStream()
    private let answers = AsyncStream<Void>.makeStream()

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        arrivals.continuation.yield()
        for await _ in answers.stream { break }
        return try await (base ?? RecordingTransport(replies: [])).send(request)
    }

    func waitForRequest() async {
        for await _ in arrivals.stream { break }
    }

    func answer() {
        answers.continuation.yield()
    }
}
