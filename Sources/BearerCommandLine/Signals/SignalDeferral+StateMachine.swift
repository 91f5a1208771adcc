@_spi(CommandLine) import BearerCore

extension SignalDeferral {
    /// When a termination signal ends the process: at once, or once every refresh under way is
    /// saved. A value that only decides; ``SignalDeferral`` installs the handler and acts.
    ///
    /// - Outside any critical section a signal ends the process at once, as if nothing were
    ///   installed: the handlers are installed when the first section opens and the dispositions
    ///   they replaced are put back when the last one closes. An ignored signal (`nohup`'s SIGHUP,
    ///   a background job's SIGINT) is left ignored.
    /// - Inside one it is held: the first signal is kept and a later one (a second Ctrl-C, or
    ///   SIGTERM after SIGINT) changes nothing, and when the last open section is left the process
    ///   ends by the first. A critical section cannot be cut short from the keyboard; SIGKILL can.
    /// - A held signal waits at most ``bound`` from the moment the first open section was entered
    ///   (the request's deadline and some time to save): a save that hangs does not keep the
    ///   process alive.
    /// - Once the process is ending no new section may start, so no refresh is sent that the end
    ///   would cut.
    package struct StateMachine: Sendable {
        private enum State: Sendable, Equatable {
            /// No refresh is out or unsaved.
            case idle
            /// `sections` are open, the first entered at `since`; `held` is the first signal that
            /// arrived since, if any.
            case deferring(sections: Int, since: ContinuousClock.Instant, held: Int32?)
            /// The process is ending by `signal`.
            case ending(Int32)
        }

        /// What a section about to be entered does.
        package enum EnterAction: Sendable, Equatable {
            /// The first open section: install the handlers (over every disposition but an
            /// ignored one), then send the refresh.
            case installAndProceed
            /// Go on: send the refresh; the handlers are installed.
            case proceed
            /// Do not send: the process is ending; wait for it.
            case waitForEnd
        }

        /// What to do about a signal that arrived.
        package enum SignalAction: Sendable, Equatable {
            /// End the process by this signal now.
            case end(Int32)
            /// Hold it until the open sections are left, or until the instant given.
            case hold(until: ContinuousClock.Instant)
            /// Nothing: the process is already ending.
            case none
        }

        /// What to do when a section is left, or when time passed.
        package enum EndAction: Sendable, Equatable {
            /// End the process by this signal now.
            case end(Int32)
            /// The last open section was left and no signal is held: put back the dispositions the
            /// handlers replaced (a `nohup`'s ignored SIGHUP was never replaced).
            case restore
            /// Nothing.
            case none
        }

        /// The longest a held signal waits, from the moment the first open section was entered.
        package let bound: Duration
        private var state = State.idle

        /// Creates a machine with nothing held.
        ///
        /// - Parameter bound: The longest a held signal waits.
        package init(bound: Duration) {
            self.bound = bound
        }

        /// When a held signal must end the process whatever is open; `nil` when none is held.
        package var deadline: ContinuousClock.Instant? {
            guard case .deferring(_, let since, .some) = state else { return nil }
            return since + bound
        }

        /// The signal held, or the one the process is ending by.
        package var signal: Int32? {
            switch state {
            case .idle: nil
            case .deferring(_, _, let held): held
            case .ending(let signal): signal
            }
        }

        /// A refresh request is about to be sent.
        package mutating func entered(at now: ContinuousClock.Instant) -> EnterAction {
            switch state {
            case .idle:
                state = .deferring(sections: 1, since: now, held: nil)
                return .installAndProceed
            case .deferring(let sections, let since, nil):
                state = .deferring(sections: sections + 1, since: since, held: nil)
                return .proceed
            case .deferring(_, _, .some), .ending:
                return .waitForEnd
            }
        }

        /// A section entered before is left: its refresh is saved, or failed.
        package mutating func left() -> EndAction {
            switch state {
            case .idle:
                preconditionFailure("a critical section was left that was never entered")
            case .deferring(let sections, let since, let held) where sections > 1:
                state = .deferring(sections: sections - 1, since: since, held: held)
                return .none
            case .deferring(_, _, nil):
                state = .idle
                return .restore
            case .deferring(_, _, .some(let held)):
                state = .ending(held)
                return .end(held)
            case .ending:
                // The bound ran out while this section was open: the process is already ending.
                return .none
            }
        }

        /// A termination signal arrived.
        package mutating func signalArrived(_ signal: Int32) -> SignalAction {
            switch state {
            case .idle:
                state = .ending(signal)
                return .end(signal)
            case .deferring(let sections, let since, nil):
                state = .deferring(sections: sections, since: since, held: signal)
                return .hold(until: since + bound)
            case .deferring(_, let since, .some):
                return .hold(until: since + bound)
            case .ending:
                return .none
            }
        }

        /// Time passed: a held signal whose bound ran out ends the process.
        package mutating func timePassed(to now: ContinuousClock.Instant) -> EndAction {
            guard let deadline, now >= deadline, case .deferring(_, _, .some(let held)) = state else { return .none }
            state = .ending(held)
            return .end(held)
        }
    }
}
