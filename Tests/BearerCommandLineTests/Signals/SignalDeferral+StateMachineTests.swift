import BearerCommandLine
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// When a termination signal ends the tool: at once outside a refresh, after the refresh is
/// saved inside one, and never later than the bound.
@Suite("SignalDeferral.StateMachine: signals wait for the refresh under way, within a bound")
struct SignalDeferralStateMachineTests {
    typealias Machine = SignalDeferral.StateMachine

    static let bound = Duration.seconds(35)
    static let start = ContinuousClock.Instant.now

    @Test("Outside a critical section a signal ends the process at once; no section starts after it")
    func signalOutsideSection() {
        var machine = Machine(bound: Self.bound)
        #expect(machine.signalArrived(SIGINT) == .end(SIGINT))
        #expect(machine.signal == SIGINT)
        #expect(machine.entered(at: Self.start) == .waitForEnd)
        #expect(machine.signalArrived(SIGTERM) == .none, "already ending")
        #expect(machine.timePassed(to: Self.start + .seconds(3600)) == .none)
    }

    @Test("Inside a section a signal is held, and ends the process when the section is left")
    func signalHeldUntilLeft() {
        var machine = Machine(bound: Self.bound)
        #expect(machine.entered(at: Self.start) == .installAndProceed)
        #expect(machine.deadline == nil, "nothing held, nothing to wake for")
        #expect(machine.signalArrived(SIGTERM) == .hold(until: Self.start + Self.bound))
        #expect(machine.signal == SIGTERM)
        #expect(machine.deadline == Self.start + Self.bound)
        #expect(machine.left() == .end(SIGTERM))
        #expect(machine.entered(at: Self.start + .seconds(1)) == .waitForEnd)
    }

    @Test("A section left without a signal puts the old dispositions back: the next signal acts as before")
    func cleanSection() {
        var machine = Machine(bound: Self.bound)
        #expect(machine.entered(at: Self.start) == .installAndProceed)
        #expect(machine.left() == .restore)
        #expect(machine.signal == nil && machine.deadline == nil)
        #expect(machine.signalArrived(SIGHUP) == .end(SIGHUP))
    }

    @Test("A second signal, of any kind, is held too, and the process ends by the first")
    func secondSignalKeepsTheFirst() {
        var machine = Machine(bound: Self.bound)
        #expect(machine.entered(at: Self.start) == .installAndProceed)
        #expect(machine.signalArrived(SIGINT) == .hold(until: Self.start + Self.bound))
        #expect(machine.signalArrived(SIGINT) == .hold(until: Self.start + Self.bound))
        #expect(machine.signalArrived(SIGTERM) == .hold(until: Self.start + Self.bound))
        #expect(machine.signal == SIGINT)
        #expect(machine.left() == .end(SIGINT))
    }

    @Test("Overlapping sections: the bound counts from the first, and the end waits for the last")
    func overlappingSections() {
        var machine = Machine(bound: Self.bound)
        #expect(machine.entered(at: Self.start) == .installAndProceed)
        #expect(machine.entered(at: Self.start + .seconds(2)) == .proceed)
        #expect(machine.signalArrived(SIGINT) == .hold(until: Self.start + Self.bound))
        #expect(machine.left() == .none, "one section is still open")
        #expect(machine.signal == SIGINT)
        #expect(machine.left() == .end(SIGINT))
    }

    @Test("While a signal is held no new section starts: its refresh would be cut off")
    func noSectionWhileHeld() {
        var machine = Machine(bound: Self.bound)
        #expect(machine.entered(at: Self.start) == .installAndProceed)
        #expect(machine.signalArrived(SIGTERM) == .hold(until: Self.start + Self.bound))
        #expect(machine.entered(at: Self.start + .seconds(1)) == .waitForEnd)
        #expect(machine.left() == .end(SIGTERM), "the section that waits was never counted")
    }

    @Test("A held signal ends the process when the bound runs out, whatever is still open")
    func boundRunsOut() {
        var machine = Machine(bound: Self.bound)
        #expect(machine.entered(at: Self.start) == .installAndProceed)
        #expect(machine.timePassed(to: Self.start + .seconds(3600)) == .none, "nothing is held")
        #expect(machine.signalArrived(SIGINT) == .hold(until: Self.start + Self.bound))
        #expect(machine.timePassed(to: Self.start + Self.bound - .milliseconds(1)) == .none)
        #expect(machine.timePassed(to: Self.start + Self.bound) == .end(SIGINT))
        #expect(machine.deadline == nil)
        #expect(machine.left() == .none, "the process is already ending")
        #expect(machine.signalArrived(SIGTERM) == .none)
    }

    @Test("Each new section counts the bound from its own start")
    func boundFromEachSection() {
        var machine = Machine(bound: Self.bound)
        #expect(machine.entered(at: Self.start) == .installAndProceed)
        #expect(machine.left() == .restore)
        let later = Self.start + .seconds(100)
        #expect(machine.entered(at: later) == .installAndProceed, "the handlers were put back in between")
        #expect(machine.signalArrived(SIGTERM) == .hold(until: later + Self.bound))
    }

    @Test("Leaving a section that was never entered stops the process")
    func leaveWithoutEnter() async {
        await #expect(processExitsWith: .failure) {
            var machine = SignalDeferral.StateMachine(bound: .seconds(1))
            _ = machine.left()
        }
    }
}
