#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension AuthSession {
    /// The session's rules as a value: where the session stands, the state it holds, and the one
    /// locked run that every caller shares. Each event returns the action the actor performs;
    /// every decision is here, tested without I/O. An event that cannot happen in the state the
    /// machine is in stops the process (`preconditionFailure`): the actor has broken a rule.
    ///
    /// Beside its phase (docs/architecture.md draws them) the session is idle, starting a run, or
    /// running one: the run's task, what its callers need (a fresh token other than ones a server
    /// rejected or a refresh replaces), whether it has refreshed, and whether it has decided.
    @_spi(CommandLine) public struct StateMachine: Sendable, CustomStringConvertible {
        private enum State: Sendable {
            case idle(Phase)
            /// ``startRun`` was returned; the actor reports the run's task before anything else.
            case starting(Phase, Need)
            case running(Phase, LockedRun)
        }

        private var current: State

        /// A session read from its store.
        @_spi(CommandLine) public init(stored state: AuthState) {
            current = .idle(state.signInRequired ? .signInRequired(state) : .saved(state))
        }

        /// The session's current state.
        var state: AuthState {
            switch current {
            case .idle(let phase), .starting(let phase, _), .running(let phase, _): phase.state
            }
        }

        /// The copy the store holds, as far as the session knows (see `Phase.storedCopy`).
        var storedCopy: AuthState? { phase.storedCopy }

        /// Whether the session can authorize requests: not signed out, and `AuthState.canAuthorize`.
        var canAuthorize: Bool {
            if case .signedOut = phase { return false }
            return phase.state.canAuthorize
        }

        // MARK: - Asking for a token

        /// A caller wants a fresh token at `now`.
        @_spi(CommandLine) public mutating func tokenRequested(at now: Date, leeway: TimeInterval) -> TokenAction {
            ask(Need(), at: now, leeway: leeway)
        }

        /// A caller wants a refresh, whatever the expiry of `seen`, the token it saw when it asked:
        /// any token issued or adopted since serves it, so a refresh under way is shared.
        mutating func refreshRequested(after seen: AccessToken?, at now: Date, leeway: TimeInterval)
            -> TokenAction
        {
            ask(Need(otherThan: seen.map { [$0] } ?? []), at: now, leeway: leeway)
        }

        /// A server rejected `token` (a `401` with `invalid_token`): the caller wants any other.
        mutating func tokenRejected(_ token: AccessToken, at now: Date, leeway: TimeInterval) -> TokenAction {
            ask(Need(otherThan: [token]), at: now, leeway: leeway)
        }

        private mutating func ask(_ need: Need, at now: Date, leeway: TimeInterval) -> TokenAction {
            switch current {
            case .starting:
                preconditionFailure(Self.unreported)
            case .running(let phase, var run) where !run.hasDecided:
                run.need.otherThan.formUnion(need.otherThan)
                current = .running(phase, run)
                return .join(run.task)
            case .running(let phase, let run):
                // The run has decided and only releases the lock: answer from the phase, and start
                // no second run before it ends.
                let action = Self.answer(need, in: phase, at: now, leeway: leeway)
                guard action == .startRun else { return action }
                return .waitForRun(run.task)
            case .idle(let phase):
                // Answering leaves the phase as it is, so a delivered state is not written back.
                let action = Self.answer(need, in: phase, at: now, leeway: leeway)
                guard action == .startRun else { return action }
                // A back-off that has ended gives way to the run.
                if case .backingOff(let state, _, _) = phase {
                    current = .starting(.saved(state), need)
                } else {
                    current = .starting(phase, need)
                }
                return action
            }
        }

        private static func answer(_ need: Need, in phase: Phase, at now: Date, leeway: TimeInterval) -> TokenAction {
            switch phase {
            case .saved(let state):
                return need.isServed(by: state, at: now, leeway: leeway) ? .deliver(state) : .startRun
            case .backingOff(let state, let until, let failure):
                guard !need.isServed(by: state, at: now, leeway: leeway) else { return .deliver(state) }
                return now >= until ? .startRun : .fail(failure)
            case .unsaved, .signInRequired, .signedOut:
                return .startRun
            }
        }

        /// The actor started the run that ``startRun`` asked for.
        mutating func runStarted(_ task: Run) {
            guard case .starting(let phase, let need) = current else {
                preconditionFailure("A run was reported that was not asked for.")
            }
            current = .running(phase, LockedRun(task: task, need: need))
        }

        /// The step after the stored copy was reloaded, or after a save or a refresh, under the lock.
        ///
        /// A run refreshes at most once: once it has, its token is used even if it lives shorter
        /// than the leeway or is one a caller rejected (the server issued it again).
        mutating func nextStepHoldingLock(at now: Date, leeway: TimeInterval) -> LockedAction {
            guard case .running(let phase, var run) = current, !run.refreshUnderway, !run.hasDecided else {
                preconditionFailure("A locked step was asked for outside a deciding run.")
            }
            let action: LockedAction
            switch phase {
            case .unsaved(let state, let base, _):
                action = .save(state, over: base)
            case .signedOut:
                action = .fail(Failure(BearerError.signInRequired("The user signed out; sign in again.")))
            case .signInRequired(let state):
                action = .fail(Failure.signInRequired(state.signInRequiredError))
            case .saved(let state), .backingOff(let state, _, _):
                // A run never starts within a back-off (the request fails first) and decides when
                // its refresh fails, so it never finds one here.
                if run.hasRefreshed {
                    // A run refreshes once: an answer that kept its refresh token but refused its
                    // access token fails rather than refreshing again.
                    action = state.accessToken != nil ? .deliver(state) : .fail(Failure.noUsableAccessToken)
                } else {
                    action = run.need.isServed(by: state, at: now, leeway: leeway) ? .deliver(state) : .refresh(state)
                }
            }
            switch action {
            case .deliver, .fail: run.hasDecided = true
            case .refresh: run.refreshUnderway = true
            case .save: break
            }
            current = .running(phase, run)
            return action
        }

        /// The run ended (its task is about to return); the next caller that needs one starts another.
        mutating func runEnded() {
            guard case .running(let phase, _) = current else { preconditionFailure("No run is in progress.") }
            current = .idle(phase)
        }

        // MARK: - Results of the actor's work

        /// A refresh the run asked for succeeded: the new state must be saved before it is used.
        mutating func refreshSucceeded(_ refreshed: AuthState) {
            finishRefresh()
            phase = .unsaved(refreshed, over: phase.storedCopy, newGrant: false)
        }

        /// A refresh the run asked for failed at `now`: `invalid_grant` marks the session (the mark
        /// is saved next), a `Retry-After` starts a back-off, any other error leaves it as it was.
        mutating func refreshFailed(_ error: any Error, at now: Date) -> RefreshFailedAction {
            finishRefresh()
            if let error = error as? OAuthError, error.signInRequired {
                phase = .unsaved(phase.state.markingSignInRequired(error), over: phase.storedCopy, newGrant: false)
                return .nextStep
            }
            if let delay = Failure.retryAfter(of: error) {
                phase = .backingOff(phase.state, until: now.addingTimeInterval(delay), failure: Failure(error))
            }
            return .fail(Failure(error))
        }

        private mutating func finishRefresh() {
            guard case .running(let phase, var run) = current, run.refreshUnderway else {
                preconditionFailure("A refresh result arrived that no run asked for.")
            }
            run.refreshUnderway = false
            run.hasRefreshed = true
            current = .running(phase, run)
        }

        /// The save of `saved`, the unsaved state, succeeded.
        mutating func saveSucceeded(_ saved: AuthState) {
            guard case .unsaved(let state, _, _) = phase, state == saved else {
                preconditionFailure("A save succeeded for a state the session was not saving.")
            }
            phase = saved.signInRequired ? .signInRequired(saved) : .saved(saved)
        }

        /// The one way the session catches up with its stored copy, read under the store's lock.
        ///
        /// - An unsaved state is newer than the stored copy it was made from: the ownership rule
        ///   (`Phase.reconciling`) says whether it is saved over the copy now stored.
        /// - A session signed out or needing sign-in takes a stored copy of the same server and
        ///   client that can authorize: someone signed in again under the same key. When that is
        ///   another account, the call that caught up fails once with ``BearerError/Kind/userMismatch``:
        ///   the session's state now names the new account, and no caller that showed the old one
        ///   is handed the new one's token without being told.
        /// - An active session takes the stored copy of the same user (another process refreshed);
        ///   it is signed out when the copy is gone, and refuses another user's copy.
        mutating func storedCopyLoaded(_ stored: AuthState?) -> StoredCopyAction {
            switch phase {
            case .unsaved:
                let (next, action) = phase.reconciling(with: stored)
                phase = next
                return action
            case .signedOut(let state), .signInRequired(let state):
                guard let stored, stored != state, stored.canAuthorize, stored.hasSameClient(as: state) else {
                    return .unchanged
                }
                phase = .saved(stored)
                guard state.mayBeOwnCopy(stored) else {
                    return .adoptedOtherAccount(Failure(BearerError.userMismatch(Failure.accountChanged)))
                }
                return .adopted
            case .saved(let state), .backingOff(let state, _, _):
                guard let stored else {
                    phase = .signedOut(state)
                    return .fail(Failure(BearerError.signInRequired(Failure.copyGone)))
                }
                guard stored != state else { return .unchanged }
                guard state.mayBeOwnCopy(stored) else {
                    return .fail(Failure(BearerError.userMismatch(Failure.otherAccount)))
                }
                phase = stored.signInRequired ? .signInRequired(stored) : .saved(stored)
                return .adopted
            }
        }

        /// A new sign-in replaces the session, whatever `stored` (the copy read under the lock) holds.
        /// - Returns: The state to save.
        mutating func replaced(with newState: AuthState, storedCopy stored: AuthState?) -> AuthState {
            phase = .unsaved(newState, over: stored, newGrant: true)
            return newState
        }

        /// An incremental grant arrived; it is merged into the session (after the stored copy was
        /// loaded). - Returns: The merged state, to save.
        /// - Throws: ``BearerError/Kind/userMismatch`` when another account answered; nothing changes.
        mutating func grantReceived(_ grant: AuthState) throws -> AuthState {
            let merged = try phase.state.merging(additionalGrant: grant)
            phase = .unsaved(merged, over: phase.storedCopy, newGrant: true)
            return merged
        }

        /// The stored session was removed: the session is signed out and forgets its tokens.
        mutating func signedOut() {
            phase = .signedOut(phase.state.forgettingTokens())
        }

        // MARK: - Rules

        /// The phase and the run, never a token: `saved`, `unsaved, running`, ….
        @_spi(CommandLine) public var description: String {
            switch current {
            case .idle(let phase): phase.name
            case .starting(let phase, _): phase.name + ", starting"
            case .running(let phase, let run): phase.name + (run.hasDecided ? ", decided" : ", running")
            }
        }

        /// The phase, in any state but `starting`, in which nothing but the run's report happens.
        private var phase: Phase {
            get {
                guard case .idle(let phase) = current else {
                    guard case .running(let phase, _) = current else { preconditionFailure(Self.unreported) }
                    return phase
                }
                return phase
            }
            set {
                switch current {
                case .idle: current = .idle(newValue)
                case .running(_, let run): current = .running(newValue, run)
                case .starting: preconditionFailure(Self.unreported)
                }
            }
        }

        private static let unreported = "The session changed before the run being started was reported."
    }
}
