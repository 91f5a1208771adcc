import Bearer
import BearerTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `401 invalid_token` retry racing a refresh: the caller whose token was rejected never gets
/// that token back from the run it meets.
@Suite("AuthSession: a rejected token is never handed back")
struct AuthSessionRejectedTokenTests {
    let clock = TestClock(Fixtures.epoch)

    static let invalidToken = RecordingTransport.Reply.response(
        status: 401,
        headers: ["WWW-Authenticate": #"Bearer realm="api", error="invalid_token""#],
        body: Data()
    )
    static let at3 = RecordingTransport.Reply.json(
        200, #"{"access_token":"at-3","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-3"}"#)

    func session(
        store: any SessionStore,
        replies: [RecordingTransport.Reply],
        delay: Duration? = nil,
        holdingFirstAnswer: Bool = false
    ) async throws -> (AuthSession, FirstAnswerHoldingTransport) {
        let transport = FirstAnswerHoldingTransport(
            RecordingTransport(replies: replies, responseDelay: delay), holding: holdingFirstAnswer)
        let session = try await AuthSession.save(
            AuthSessionStateMachineTests.state(), to: store, key: "main", transport: transport,
            clock: clock.wallClock)
        return (session, transport)
    }

    func api() -> URLRequest { URLRequest(url: Fixtures.url("https://api.example.com/v1/items")) }

    /// Yields until `condition` holds, a bounded number of times (never a wait for time to pass).
    func yield(until condition: () async -> Bool) async {
        for _ in 0..<100_000 where !(await condition()) { await Task.yield() }
    }

    @Test("A 401 retry that meets a refresh under way shares it: one token request, the new token")
    func retryJoinsTheRefreshUnderWay() async throws {
        let (session, transport) = try await session(
            store: InMemorySessionStore(),
            replies: [Self.invalidToken, AuthSessionTests.refreshReply, .json(200, "{}")],
            delay: .milliseconds(30),
            holdingFirstAnswer: true
        )
        let request = api()
        async let answer = session.data(for: request)
        await yield { await transport.requests.count == 1 }
        // The token goes stale while the request is out; another caller starts the refresh, and
        // only then does the 401 come back (held, so a busy machine cannot reorder the two).
        clock.advance(by: 3590)
        async let other = session.validAccessToken()
        await yield { await transport.requests.count == 2 }
        await transport.releaseFirstAnswer()
        let (_, response) = try await answer
        #expect(response.statusCode == 200)
        #expect(try await other.value == "at-2")
        let sent = await transport.requests
        #expect(sent.map { $0.headerFields["Authorization"] } == ["Bearer at-1", nil, "Bearer at-2"])
        #expect(await transport.requests(toPathEnding: "/token").count == 1)
    }

    @Test("A 401 for the token a finishing run hands out: the retry waits for that run, then refreshes")
    func retryAfterTheRunThatHandsOutTheRejectedToken() async throws {
        let store = ReleaseHoldingStore()
        let (session, transport) = try await session(
            store: store,
            replies: [AuthSessionTests.refreshReply, Self.invalidToken, Self.at3, .json(200, "{}")]
        )
        clock.advance(by: 3590)
        await store.holdNextRelease()
        async let first = session.validAccessToken()
        // The run has refreshed and saved at-2 and decided; it still holds the lock.
        await store.waitUntilHeld()
        let request = api()
        async let answer = session.data(for: request)
        await yield { await transport.requests.count == 2 }
        await store.release()
        let (_, response) = try await answer
        #expect(response.statusCode == 200)
        #expect(try await first.value == "at-2")
        let sent = await transport.requests
        #expect(sent.map { $0.headerFields["Authorization"] } == [nil, "Bearer at-2", nil, "Bearer at-3"])
        #expect(sent[2].formBody["refresh_token"] == "rt-2", "the second refresh uses the rotated token")
    }
}

/// A ``RecordingTransport`` that can hold the answer to its first request until the test lets it
/// go, so that what happens while that request is out cannot depend on the machine's speed.
actor FirstAnswerHoldingTransport: HTTPTransport {
    private let base: RecordingTransport
    private var holdsFirst: Bool
    private var isFirst = true
    private var held: CheckedContinuation<Void, Never>?

    init(_ base: RecordingTransport, holding: Bool) {
        self.base = base
        self.holdsFirst = holding
    }

    /// The requests sent, in order.
    var requests: [TransportRequest] { get async { await base.requests } }

    /// The requests whose path ends with `suffix`.
    func requests(toPathEnding suffix: String) async -> [TransportRequest] {
        await base.requests(toPathEnding: suffix)
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard isFirst else { return try await base.send(request) }
        isFirst = false
        let response = try await base.send(request)
        if holdsFirst { await withCheckedContinuation { held = $0 } }
        return response
    }

    /// Lets the first answer go (at once, if it has not come back yet).
    func releaseFirstAnswer() {
        holdsFirst = false
        held?.resume()
        held = nil
    }
}

/// An in-memory store that can hold the lock after a locked body has returned, before releasing
/// it, as a store that is slow to write or unlock does.
actor ReleaseHoldingStore: SessionStore {
    private let base = InMemorySessionStore()
    private var holdsNext = false
    private var held: CheckedContinuation<Void, Never>?
    private var heldWaiters: [CheckedContinuation<Void, Never>] = []
    private var isHeld = false

    func holdNextRelease() { holdsNext = true }

    /// Returns once a body has returned and its lock is being held.
    func waitUntilHeld() async {
        guard !isHeld else { return }
        await withCheckedContinuation { heldWaiters.append($0) }
    }

    /// Lets the held lock go.
    func release() {
        held?.resume()
        held = nil
    }

    private func holdIfAsked() async {
        guard holdsNext else { return }
        holdsNext = false
        await withCheckedContinuation { continuation in
            held = continuation
            isHeld = true
            for waiter in heldWaiters { waiter.resume() }
            heldWaiters = []
        }
    }

    func load(key: String) async throws -> AuthState? { try await base.load(key: key) }
    func keys() async throws -> [String] { try await base.keys() }

    nonisolated func withExclusiveAccess<Result: Sendable>(
        to key: String,
        _ body: @Sendable (_ access: InMemorySessionStore.Access) async throws -> Result
    ) async throws -> Result {
        try await base.withExclusiveAccess(to: key) { access in
            let result = try await body(access)
            await self.holdIfAsked()
            return result
        }
    }
}
