import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Bridge) @_spi(Fleet) @_spi(Internals) @_spi(Migration) @testable import BearerCore

/// A store whose lock can outlive its connection only for a while bounds the token requests made
/// under it: past the access's deadline the request is given up, and while the store moves the
/// deadline on, the request runs to its answer.
@Suite("Exchange deadline: token requests under a lease")
struct ExchangeDeadlineTests {
    private static func staleSession(
        store: DeadlineStore, replyingAfter delay: Duration, through gate: GatedTransport? = nil
    ) async throws -> (AuthSession, RecordingTransport) {
        let clock = TestClock(Fixtures.epoch)
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
        let store = DeadlineStore()
        let (session, transport) = try await Self.staleSession(store: store, replyingAfter: .seconds(30))
        store.deadline.record(.now + .seconds(60))
        let refresh = Task { try await session.validAccessToken() }
        while await transport.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        store.deadline.record(.now + .milliseconds(200))
        let error = await #expect(throws: BearerError.self) { try await refresh.value }
        #expect(error?.kind == .network)
        #expect("\(String(describing: error))".contains("claim"), "\(String(describing: error))")
        #expect(await transport.requests.count == 1)
        #expect(await session.state.refreshToken == RefreshToken("rt-old"), "the grant is kept")
    }

    @Test("A deadline moved on while the request runs lets it finish, past the first deadline")
    func extendedDeadlineLetsItFinish() async throws {
        let store = DeadlineStore()
        let gated = GatedTransport()
        let (session, _) = try await Self.staleSession(store: store, replyingAfter: .zero, through: gated)
        // The claim ends 300 ms after the watcher first looks, and is renewed when it looks
        // again: the request outlives that first end and is answered.
        store.renewAfterFirstLook(endingIn: .milliseconds(300))
        let refresh = Task { try await session.validAccessToken() }
        await gated.waitForRequest()
        while store.firstEnd == nil { try await Task.sleep(for: .milliseconds(10)) }
        let first = try #require(store.firstEnd)
        try await Task.sleep(until: first + .milliseconds(200))
        gated.answer()
        #expect(try await refresh.value == AccessToken("at-new"))
        #expect(ContinuousClock.now > first)
    }
}

/// An in-memory store whose access ends its claim at the last deadline the test recorded.
private final class DeadlineStore: SessionStore, @unchecked Sendable {
    let base = InMemorySessionStore()
    let deadline = Recorder<ContinuousClock.Instant>()
    private let lock = NSLock()
    private var reads = 0
    private var delay: Duration?
    private var first: ContinuousClock.Instant?

    /// The first end the watcher saw, once it looked.
    var firstEnd: ContinuousClock.Instant? { lock.withLock { first } }

    /// The claim, far off when the request starts, ends `delay` after the watcher first looks and
    /// far off again when it looks next, as a confirmed renewal moves it.
    func renewAfterFirstLook(endingIn delay: Duration) {
        lock.withLock { self.delay = delay }
    }

    /// The deadline the access reports now.
    func readDeadline() -> ContinuousClock.Instant? {
        lock.withLock {
            guard let delay else { return deadline.all.last }
            reads += 1
            guard reads == 2 else { return .now + .seconds(600) }
            first = .now + delay
            return first
        }
    }

    func load(key: String) async throws -> AuthState? { try await base.load(key: key) }
    func keys() async throws -> [String] { try await base.keys() }

    func withExclusiveAccess<Result: Sendable>(
        to key: String, _ body: @Sendable (_ access: Access) async throws -> Result
    ) async throws -> Result {
        try await base.withExclusiveAccess(to: key) { access in try await body(Access(store: self, base: access)) }
    }

    struct Access: ExclusiveSessionAccess {
        let store: DeadlineStore
        let base: InMemorySessionStore.Access

        func load() async throws -> AuthState? { try await base.load() }
        func write(_ state: AuthState) async throws { try await base.write(state) }
        func remove() async throws { try await base.remove() }
        var exchangeDeadline: ContinuousClock.Instant? { store.readDeadline() }
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
