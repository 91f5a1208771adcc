/// Asks the system to keep the process running while a block runs. On iOS, iPadOS, Mac Catalyst,
/// tvOS, watchOS and visionOS this is `ProcessInfo.performExpiringActivity(withReason:using:)`,
/// which app extensions may call too.
@_spi(Bridge) public protocol ExpiringActivityProvider: Sendable {
    /// Calls `block` on another thread, never within this call: with `false` once the system has
    /// granted time, which lasts while that call of `block` runs; with `true` when it could grant
    /// none, or when it takes the time back while the first call still runs.
    ///
    /// - Parameters:
    ///   - reason: Why the process needs the time, for debugging; never empty.
    ///   - block: The activity's work.
    func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void)
}

/// Runs a locked section of a session shared through an app group (load, refresh, save) inside an
/// expiring activity.
///
/// iOS ends a suspended process that holds a file lock in a shared container (exception
/// `0xdead10cc`). A process ended after the server rotated the refresh token and before the save
/// would lose the grant for the app and its extensions alike. So the section starts only once the
/// system has granted time, runs for at most ``budget`` (below the time the system grants), and is
/// cancelled when the system takes the time back; in every case the lock is given back after the
/// section has wound down (the answer is in, or the request was abandoned) and before the activity
/// ends. What remains: a process the system ends without warning (memory pressure, a crash) in
/// the middle of a request, and a request the server answered after it was abandoned
/// (docs/app-extensions.md).
@_spi(Bridge) public struct ExpiringActivity: Sendable {
    /// The longest a section runs: below the about 30 seconds the system gives a process that asks
    /// for time in the background, so the section ends before the system must take the time back.
    @_spi(Bridge) public static let defaultBudget: Duration = .seconds(20)

    /// What asks the system for time.
    let provider: any ExpiringActivityProvider
    /// Why, for the system's logs.
    let reason: String
    /// The longest a section runs before it is cancelled.
    let budget: Duration

    /// An activity that asks `provider` for time.
    ///
    /// - Parameters:
    ///   - provider: What asks the system for time.
    ///   - reason: Why, for the system's logs; never empty.
    ///   - budget: The longest a section runs before it is cancelled.
    @_spi(Bridge) public init(
        provider: any ExpiringActivityProvider,
        reason: String = "Refreshing a shared session",
        budget: Duration = ExpiringActivity.defaultBudget
    ) {
        self.provider = provider
        self.reason = reason
        self.budget = budget
    }

    /// Runs `section` once the system has granted time, cancelling it when the system takes the
    /// time back or ``budget`` has passed. Returns only once `section` has returned or thrown, and
    /// only then lets the activity end.
    ///
    /// - Parameter section: The locked section; it takes the lock itself and gives it back before it
    ///   returns or throws.
    /// - Returns: What `section` returns.
    /// - Throws: ``BearerError/Kind/timedOut`` when the system granted no time (then `section` never
    ///   ran) or when `section` was cancelled for lack of time and threw; otherwise what `section`
    ///   throws.
    func run<Result: Sendable>(_ section: @Sendable () async throws -> Result) async throws -> Result {
        let run = ExpiringActivityRun()
        try await run.waitForGrant(from: provider, reason: reason)
        let budget = self.budget
        do {
            let value = try await withoutActuallyEscaping(section) { section in
                try await withThrowingTaskGroup(of: SectionOutcome<Result>.self) { group in
                    group.addTask { .returned(try await section()) }
                    group.addTask {
                        await run.waitForStop()
                        return .stopRequested
                    }
                    group.addTask {
                        do { try await Task.sleep(for: budget) } catch { return .stopRequested }
                        run.budgetElapsed()
                        return .stopRequested
                    }
                    while let outcome = try await group.next() {
                        switch outcome {
                        case .returned(let value):
                            group.cancelAll()
                            return value
                        case .stopRequested:
                            // Cancel the section and wait for it to wind down (and give its lock back).
                            group.cancelAll()
                        }
                    }
                    throw CancellationError()
                }
            }
            run.sectionFinished()
            return value
        } catch {
            // A section cancelled for lack of time ends with a cancellation, or with the network
            // error of its cut request; any other failure (an answer of the server, the store's)
            // came on its own and is passed on as it is.
            let stopReason = run.sectionFinished()
            guard Self.isCutShort(error) else { throw error }
            switch stopReason {
            case .expired:
                throw BearerError.timedOut(
                    "The system took back the time the app had to run in the background before the shared "
                        + "session's refresh finished, so the refresh was abandoned and the lock given back; the "
                        + "session keeps what was saved. Try again when the app or extension is active.",
                    underlyingError: error)
            case .budgetElapsed:
                throw BearerError.timedOut(
                    "The shared session's refresh (waiting for the app group's lock, then for the server) took "
                        + "longer than the \(budget) the app may run in the background, so it was abandoned and the "
                        + "lock given back; the session keeps what was saved. Try again when the app is active.",
                    underlyingError: error)
            case nil:
                throw error
            }
        }
    }

    /// Whether `error` is what a cancelled section throws: a cancellation, or the network error or
    /// timeout of a request cut short.
    private static func isCutShort(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        guard let error = error as? BearerError else { return false }
        return error.kind == .network || error.kind == .timedOut
    }
}

/// What one child of the section's task group ended with.
private enum SectionOutcome<Result: Sendable>: Sendable {
    case returned(Result)
    case stopRequested
}

/// The shared state of one ``ExpiringActivity/run(_:)``: its state machine, the task waiting for
/// the system's answer, and the child waiting for a reason to stop. The system's block and the
/// tasks meet here, under one lock.
private final class ExpiringActivityRun: @unchecked Sendable {
    // Unchecked: every stored property is read and written under `lock`.
    private let lock = Lock()
    private var machine = ExpiringActivity.StateMachine()
    private var grant: CheckedContinuation<Void, any Error>?
    private var stopWaiter: CheckedContinuation<Void, Never>?
    private var stopRequested = false

    /// Asks for time and waits for the system's answer.
    ///
    /// - Throws: ``BearerError/Kind/timedOut`` when the system granted none.
    func waitForGrant(from provider: any ExpiringActivityProvider, reason: String) async throws {
        try await withCheckedThrowingContinuation { continuation in
            lock.withLock { grant = continuation }
            provider.performExpiringActivity(withReason: reason) { expired in self.blockCalled(expired: expired) }
        }
    }

    /// The system's block: starts the section and keeps the activity until it has finished, or
    /// refuses, or cancels the running section.
    private func blockCalled(expired: Bool) {
        let (action, waiting) = lock.withLock {
            let action = machine.blockCalled(expired: expired)
            let waiting = grant
            if action == .startSectionAndWait || action == .refuse { grant = nil }
            return (action, waiting)
        }
        switch action {
        case .startSectionAndWait:
            waiting?.resume()
            // This thread is the activity: the system keeps the process running until it returns.
            lock.withLock(waitingUntil: { machine.mayEndActivity }, {})
        case .refuse:
            waiting?.resume(
                throwing: BearerError.timedOut(
                    "The system gave the app no time to run in the background, so the shared session was not "
                        + "refreshed; nothing was sent and the app group's lock was not taken. Try again when the "
                        + "app or extension is active."))
        case .cancelSection:
            requestStop()
        case .none:
            break
        }
    }

    /// The budget ran out.
    func budgetElapsed() {
        let action = lock.withLock { machine.budgetElapsed() }
        if action == .cancelSection { requestStop() }
    }

    /// Suspends until the section must stop, or until this child is cancelled.
    func waitForStop() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = lock.withLock {
                    if stopRequested || Task.isCancelled { return true }
                    stopWaiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            requestStop()
        }
    }

    private func requestStop() {
        let waiter = lock.withLock {
            stopRequested = true
            defer { stopWaiter = nil }
            return stopWaiter
        }
        waiter?.resume()
    }

    /// The section returned or threw; lets the activity's block return.
    ///
    /// - Returns: Why the section had been stopped, if it was.
    @discardableResult
    func sectionFinished() -> ExpiringActivity.StateMachine.StopReason? {
        lock.withLockSignalling { machine.sectionFinished() }
    }
}
