extension ExpiringActivity {
    /// The life of one locked section run under an expiring activity, decided apart from the
    /// system's callback and the tasks. ``ExpiringActivity`` feeds it what happens and does what it
    /// answers.
    ///
    /// - The system first answers the request for time: `granted` (the activity's block runs with
    ///   `expired` false) or `expired` before any grant (it could not take an assertion). Refused,
    ///   nothing is locked and nothing is sent.
    /// - Granted, the section runs; the block's thread keeps the activity, and so the process, alive
    ///   until the section has finished, which includes giving the lock back.
    /// - When the system takes the time back (`expired` while running), or the section's budget
    ///   runs out, the section is cancelled: its request is abandoned, and the lock is given back
    ///   when the section has wound down, before the activity ends. It is never given back while a
    ///   request may still be answered.
    struct StateMachine: Sendable {
        private enum State: Sendable, Equatable {
            /// The system has not answered yet.
            case requested
            /// The system gave no time: the section never ran.
            case refused
            /// The section runs.
            case running
            /// The section was told to stop (`reason`) and is winding down.
            case stopping(StopReason)
            /// The section is over and the activity may end.
            case finished
        }

        /// Why a running section was cancelled.
        enum StopReason: Sendable, Equatable {
            /// The system took the time back.
            case expired
            /// The section ran for its whole budget.
            case budgetElapsed
        }

        /// What to do when the system calls the activity's block.
        enum BlockAction: Sendable, Equatable {
            /// Start the section, and keep this call (the block) waiting until it has finished.
            case startSectionAndWait
            /// Tell the waiting caller that the system gave no time; return from the block.
            case refuse
            /// Cancel the section; return from the block at once.
            case cancelSection
            /// Nothing to do; return from the block.
            case none
        }

        /// What to do when the section's budget ran out.
        enum BudgetAction: Sendable, Equatable {
            /// Cancel the section.
            case cancelSection
            /// Nothing: the section is not running.
            case none
        }

        private var state = State.requested

        /// Creates a machine waiting for the system's answer.
        init() {}

        /// Whether the activity's waiting block may return: the section is over or never ran.
        var mayEndActivity: Bool {
            state == .finished || state == .refused
        }

        /// Why the section was stopped, if it was.
        var stopReason: StopReason? {
            if case .stopping(let reason) = state { return reason }
            return nil
        }

        /// The system called the activity's block with `expired`.
        mutating func blockCalled(expired: Bool) -> BlockAction {
            switch (state, expired) {
            case (.requested, false):
                state = .running
                return .startSectionAndWait
            case (.requested, true):
                state = .refused
                return .refuse
            case (.running, true):
                state = .stopping(.expired)
                return .cancelSection
            case (.running, false), (.stopping, _), (.refused, _), (.finished, _):
                return .none
            }
        }

        /// The section's budget ran out.
        mutating func budgetElapsed() -> BudgetAction {
            guard state == .running else { return .none }
            state = .stopping(.budgetElapsed)
            return .cancelSection
        }

        /// The section returned or threw, and gave its lock back.
        ///
        /// - Returns: Why it had been stopped, if it was.
        mutating func sectionFinished() -> StopReason? {
            let reason = stopReason
            state = .finished
            return reason
        }
    }
}
