import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Bridge) @_spi(CommandLine) @testable import BearerCore

/// Events the machine refuses: each stops the process, and the public paths that come closest to
/// each never send it.
@Suite("AuthSession.StateMachine: impossible events stop loudly and are unreachable")
struct AuthSessionStateMachineGuardTests {
    typealias Machine = AuthSession.StateMachine
    typealias Phases = AuthSessionStateMachineTests

    // MARK: - Each impossible event stops the process

    @Test("A run reported without being asked for stops the process")
    func runStartedUnasked() async {
        await #expect(processExitsWith: .failure) {
            var machine = Machine(stored: Phases.state())
            machine.runStarted(Phases.run)
        }
    }

    @Test("Any event between startRun and the run's report stops the process")
    func eventWhileStarting() async {
        await #expect(processExitsWith: .failure) {
            var machine = Machine(stored: Phases.state())
            _ = machine.tokenRequested(at: Phases.staleTime(for: .saved), leeway: Phases.leeway)
            _ = machine.tokenRequested(at: Phases.staleTime(for: .saved), leeway: Phases.leeway)
        }
        await #expect(processExitsWith: .failure) {
            var machine = Machine(stored: Phases.state())
            _ = machine.tokenRequested(at: Phases.staleTime(for: .saved), leeway: Phases.leeway)
            machine.signedOut()
        }
    }

    @Test("A locked step outside a run, during its refresh, or after it decided stops the process")
    func lockedStepOutsideADecidingRun() async {
        await #expect(processExitsWith: .failure) {
            var machine = Machine(stored: Phases.state())
            _ = machine.nextStepHoldingLock(at: Phases.epoch, leeway: Phases.leeway)
        }
        await #expect(processExitsWith: .failure) {
            var machine = Machine(stored: Phases.state())
            _ = Phases.refreshInRun(&machine)
            _ = machine.nextStepHoldingLock(at: Phases.epoch, leeway: Phases.leeway)
        }
        await #expect(processExitsWith: .failure) {
            var machine = Machine(stored: Phases.state())
            Phases.startRun(&machine)
            _ = machine.nextStepHoldingLock(at: Phases.epoch, leeway: Phases.leeway)
            _ = machine.nextStepHoldingLock(at: Phases.epoch, leeway: Phases.leeway)
        }
    }

    @Test("A refresh result no run asked for stops the process")
    func refreshResultUnasked() async {
        await #expect(processExitsWith: .failure) {
            var machine = Machine(stored: Phases.state())
            Phases.startRun(&machine)
            machine.refreshSucceeded(Phases.state(access: "at-2"))
        }
        await #expect(processExitsWith: .failure) {
            var machine = Machine(stored: Phases.state())
            _ = machine.refreshFailed(Phases.busy, at: Phases.epoch)
        }
    }

    @Test("The end of a run that is not in progress stops the process")
    func runEndedWithoutARun() async {
        await #expect(processExitsWith: .failure) {
            var machine = Machine(stored: Phases.state())
            machine.runEnded()
        }
    }

    @Test("A save of a state the session is not saving stops the process")
    func saveOfAnotherState() async {
        await #expect(processExitsWith: .failure) {
            var machine = Machine(stored: Phases.state())
            machine.saveSucceeded(Phases.state())
        }
        await #expect(processExitsWith: .failure) {
            var machine = Phases.machine(in: .unsaved)
            machine.saveSucceeded(Phases.state(access: "older"))
        }
    }

    // MARK: - The public paths that come closest never send one

    let clock = TestClock(Fixtures.epoch)
    static let at3 = RecordingTransport.Reply.json(
        200, #"{"access_token":"at-3","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-3"}"#)

    func session(
        store: any SessionStore,
        replies: [RecordingTransport.Reply],
        delay: Duration? = nil
    ) async throws -> (AuthSession, RecordingTransport) {
        let transport = RecordingTransport(replies: replies, responseDelay: delay)
        let state = Phases.state()
        let session = try await AuthSession.save(
            state, to: store, key: "main", transport: transport, clock: clock.wallClock)
        return (session, transport)
    }

    @Test("Plain callers and forced refreshes at once: one run at a time, each refresh using the last one's token")
    func concurrentPlainAndForcedCallers() async throws {
        let replies = (2...12).map { index in
            RecordingTransport.Reply.json(
                200,
                #"{"access_token":"at-\#(index)","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-\#(index)"}"#
            )
        }
        let (session, transport) = try await session(
            store: InMemorySessionStore(), replies: replies, delay: .milliseconds(5))
        clock.advance(by: 3590)
        let tokens = try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<30 {
                group.addTask {
                    if index.isMultiple(of: 3) { return try await session.refresh().accessToken?.value }
                    return try await session.validAccessToken().value
                }
            }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        let sent = await transport.requests.map { $0.formBody["refresh_token"] }
        #expect(!sent.isEmpty && sent.count <= 11, "at most one refresh per forced caller, and one for the rest")
        #expect(sent == (1...sent.count).map { "rt-\($0)" }, "runs never overlap, so no refresh token is sent twice")
        #expect(tokens.allSatisfy { $0 != nil && $0 != "at-1" })
    }

    @Test("Sign-out and sign-in while a refresh runs wait for its lock and never meet its steps")
    func lockedOperationsDuringARun() async throws {
        let store = InMemorySessionStore()
        let (session, transport) = try await session(
            store: store, replies: [AuthSessionTests.refreshReply], delay: .milliseconds(20))
        clock.advance(by: 3590)
        async let token = session.validAccessToken()
        let replacement = Phases.state(access: "at-new", refresh: "rt-new", expiresIn: 7200)
        try await session.replace(with: replacement)
        _ = try? await token
        #expect(await session.state.accessToken == replacement.accessToken)
        #expect(try await store.load(key: "main") == replacement)
        async let next = session.refresh()
        try await session.signOut()
        _ = try? await next
        #expect(await !session.canAuthorize)
        #expect(try await store.load(key: "main") == nil)
        #expect(await transport.requests.allSatisfy { $0.url.path.hasSuffix("/token") })
    }

    @Test("A lock that cannot be taken ends the run; the next call starts a new one")
    func lockFailureEndsTheRun() async throws {
        let store = LockFailingStore()
        let (session, transport) = try await session(store: store, replies: [AuthSessionTests.refreshReply])
        await store.failNextLock()
        clock.advance(by: 3590)
        let error = await #expect(throws: BearerError.self) { try await session.validAccessToken() }
        #expect(error?.kind == .storageFailure)
        #expect(await transport.requests.isEmpty)
        #expect(try await session.validAccessToken().value == "at-2")
    }

    @Test("An unsaved state replaced before its save succeeded: the save that succeeds is the newest")
    func replacedBeforeSaved() async throws {
        let store = FaultyStore()
        let (session, transport) = try await session(store: store, replies: [AuthSessionTests.refreshReply])
        await store.setFailsSaves(true)
        clock.advance(by: 3590)
        await #expect(throws: BearerError.self) { try await session.validAccessToken() }
        let replacement = Phases.state(access: "at-new", refresh: "rt-new", expiresIn: 7200)
        await #expect(throws: BearerError.self) { try await session.replace(with: replacement) }
        await store.setFailsSaves(false)
        #expect(try await session.validAccessToken().value == "at-new")
        #expect(try await store.load(key: "main") == replacement)
        #expect(await transport.requests.count == 1)
    }
}

/// A store whose next lock can be made to fail, as when another process holds it too long.
actor LockFailingStore: SessionStore {
    private let base = InMemorySessionStore()
    private var failsNextLock = false

    func failNextLock() { failsNextLock = true }

    func load(key: String) async throws -> AuthState? { try await base.load(key: key) }
    func keys() async throws -> [String] { try await base.keys() }

    private func takeFailure() -> Bool {
        defer { failsNextLock = false }
        return failsNextLock
    }

    nonisolated func withExclusiveAccess<Result: Sendable>(
        to key: String,
        _ body: @Sendable (_ access: InMemorySessionStore.Access) async throws -> Result
    ) async throws -> Result {
        if await takeFailure() { throw BearerError.storageFailure("The lock is held elsewhere.") }
        return try await base.withExclusiveAccess(to: key, body)
    }
}
