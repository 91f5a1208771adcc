import Bearer
import Foundation
import Testing

@_spi(CommandLine) @testable import BearerCore

/// The machine's transitions for the results of the actor's work (saves, refreshes, sign-ins,
/// grants, sign-outs) and for callers that meet a run in progress; the phases and fixtures are in
/// AuthSessionStateMachineTests.
extension AuthSessionStateMachineTests {
    @Test("A save settles the unsaved state it saved")
    func saveSucceeded() {
        var machine = Self.machine(in: .unsaved)
        let unsaved = machine.state
        machine.saveSucceeded(unsaved)
        #expect(machine.description == "saved")
        #expect(machine.tokenRequested(at: Self.epoch, leeway: Self.leeway) == .deliver(unsaved))
    }

    @Test("A marked state that was saved needs a new sign-in")
    func savedMarkNeedsSignIn() {
        var machine = Self.machine(in: .saved)
        let stale = Self.refreshInRun(&machine)
        #expect(machine.refreshFailed(Self.invalidGrant, at: Self.epoch) == .nextStep)
        let marked = stale.markingSignInRequired(Self.invalidGrant)
        #expect(machine.description == "unsaved, running")
        #expect(machine.nextStepHoldingLock(at: Self.epoch, leeway: Self.leeway) == .save(marked, over: stale))
        machine.saveSucceeded(marked)
        #expect(machine.description == "signInRequired, running")
        #expect(!machine.canAuthorize)
        let failure = Machine.Failure(BearerError.signInRequired("grant gone"))
        #expect(machine.nextStepHoldingLock(at: Self.epoch, leeway: Self.leeway) == .fail(failure))
    }

    @Test("Refresh outcomes: success is unsaved, invalid_grant marks, Retry-After backs off, others pass")
    func refreshOutcomes() {
        var succeeded = Self.machine(in: .saved)
        _ = Self.refreshInRun(&succeeded)
        succeeded.refreshSucceeded(Self.state(access: "at-2"))
        #expect(succeeded.description == "unsaved, running")
        #expect(succeeded.state.accessToken == AccessToken("at-2"))

        var busy = Self.machine(in: .saved)
        _ = Self.refreshInRun(&busy, at: Self.failedAt)
        #expect(busy.refreshFailed(Self.busy, at: Self.failedAt) == .fail(Machine.Failure(Self.busy)))
        busy.runEnded()
        let until = Self.failedAt.addingTimeInterval(Self.retryAfter)
        var before = busy
        #expect(
            before.tokenRequested(at: until.addingTimeInterval(-1), leeway: Self.leeway)
                == .fail(Machine.Failure(Self.busy)))
        #expect(busy.tokenRequested(at: until, leeway: Self.leeway) == .startRun, "the back-off ends at Retry-After")

        var offline = Self.machine(in: .saved)
        _ = Self.refreshInRun(&offline)
        let network = BearerError.network("offline")
        #expect(offline.refreshFailed(network, at: Self.epoch) == .fail(Machine.Failure(network)))
        offline.runEnded()
        #expect(offline.description == "saved")
        #expect(offline.state == Self.state())
    }

    @Test("A new sign-in replaces any phase and must be saved", arguments: PhaseName.allCases)
    func replaced(phase: PhaseName) {
        var machine = Self.machine(in: phase)
        let newState = Self.state(access: "at-new", subject: "user-3")
        let stored = machine.storedCopy
        #expect(machine.replaced(with: newState, storedCopy: stored) == newState)
        #expect(machine.storedCopy == stored)
        #expect(machine.description == "unsaved")
        #expect(machine.canAuthorize)
        machine.saveSucceeded(newState)
        #expect(machine.description == "saved")
    }

    @Test("An incremental grant merges for the same user and is refused for another", arguments: PhaseName.allCases)
    func grantReceived(phase: PhaseName) throws {
        var machine = Self.machine(in: phase)
        let before = machine.state
        let beforePhase = machine.description
        #expect(throws: BearerError.self) {
            try machine.grantReceived(Self.state(access: "at-o", subject: "user-2"))
        }
        #expect(machine.state == before)
        #expect(machine.description == beforePhase)
        var grant = Self.state(access: "at-g", refresh: "rt-g")
        grant.grantedScopes = ["email", "drive"]
        let merged = try machine.grantReceived(grant)
        #expect(merged.grantedScopes == ["email", "drive"])
        #expect(!merged.signInRequired)
        #expect(machine.description == "unsaved")
    }

    @Test("Signing out forgets the tokens and refuses every later request", arguments: PhaseName.allCases)
    func signedOut(phase: PhaseName) {
        var machine = Self.machine(in: phase)
        machine.signedOut()
        #expect(machine.description == "signedOut")
        #expect(machine.state.accessToken == nil && machine.state.refreshToken == nil)
        #expect(!machine.canAuthorize)
        Self.startRun(&machine, at: Self.epoch)
        #expect(machine.nextStepHoldingLock(at: Self.epoch, leeway: Self.leeway) == .fail(Self.signedOutFailure))
    }

    @Test("canAuthorize holds in every phase but needing sign-in and signed out", arguments: PhaseName.allCases)
    func canAuthorize(phase: PhaseName) {
        #expect(Self.machine(in: phase).canAuthorize == ![.signInRequired, .signedOut].contains(phase))
    }

    // MARK: - Callers that meet a run in progress

    @Test("While a run decides, every caller joins it, and a rejection makes it refresh a fresh token")
    func callersJoinADecidingRun() throws {
        var machine = Self.machine(in: .unsaved)
        Self.startRun(&machine, at: Self.epoch)
        let unsaved = machine.state
        let token = try #require(unsaved.accessToken)
        #expect(machine.tokenRequested(at: Self.epoch, leeway: Self.leeway) == .join(Self.run))
        #expect(machine.refreshRequested(after: token, at: Self.epoch, leeway: Self.leeway) == .join(Self.run))
        #expect(machine.tokenRejected(token, at: Self.epoch, leeway: Self.leeway) == .join(Self.run))
        #expect(machine.nextStepHoldingLock(at: Self.epoch, leeway: Self.leeway) == .save(unsaved, over: Self.state()))
        machine.saveSucceeded(unsaved)
        // The token is fresh, but a joined caller saw it rejected: the run does not hand it out.
        #expect(machine.nextStepHoldingLock(at: Self.epoch, leeway: Self.leeway) == .refresh(unsaved))
    }

    @Test("A run that has decided on the rejected token is waited for; a new run refreshes after it")
    func rejectedTokenWaitsForTheDecidedRun() {
        var machine = Self.machine(in: .unsaved)
        Self.startRun(&machine, at: Self.epoch)
        let unsaved = machine.state
        let token = AccessToken("at-2")
        #expect(machine.nextStepHoldingLock(at: Self.epoch, leeway: Self.leeway) == .save(unsaved, over: Self.state()))
        machine.saveSucceeded(unsaved)
        #expect(machine.nextStepHoldingLock(at: Self.epoch, leeway: Self.leeway) == .deliver(unsaved))
        #expect(machine.description == "saved, decided")
        // It still holds the lock: a plain caller is answered from the saved state at once…
        #expect(machine.tokenRequested(at: Self.epoch, leeway: Self.leeway) == .deliver(unsaved))
        // …one that saw its token rejected, or asks for a refresh, waits for the run to end.
        #expect(machine.tokenRejected(token, at: Self.epoch, leeway: Self.leeway) == .waitForRun(Self.run))
        #expect(machine.refreshRequested(after: token, at: Self.epoch, leeway: Self.leeway) == .waitForRun(Self.run))
        machine.runEnded()
        #expect(machine.tokenRejected(token, at: Self.epoch, leeway: Self.leeway) == .startRun)
        machine.runStarted(Self.otherRun)
        #expect(machine.storedCopyLoaded(unsaved) == .unchanged)
        #expect(machine.nextStepHoldingLock(at: Self.epoch, leeway: Self.leeway) == .refresh(unsaved))
    }

    @Test("A run that has decided on a refreshed token serves the callers that rejected the old one")
    func refreshedRunServesRejections() throws {
        var machine = Self.machine(in: .saved)
        let stale = Self.refreshInRun(&machine)
        let refreshed = Self.state(access: "at-2", refresh: "rt-2", expiresIn: 7200)
        machine.refreshSucceeded(refreshed)
        #expect(machine.tokenRejected(AccessToken("at-1"), at: Self.epoch, leeway: Self.leeway) == .join(Self.run))
        #expect(machine.nextStepHoldingLock(at: Self.epoch, leeway: Self.leeway) == .save(refreshed, over: stale))
        machine.saveSucceeded(refreshed)
        #expect(machine.nextStepHoldingLock(at: Self.epoch, leeway: Self.leeway) == .deliver(refreshed))
        let old = try #require(stale.accessToken)
        #expect(machine.tokenRejected(old, at: Self.epoch, leeway: Self.leeway) == .deliver(refreshed))
        #expect(machine.refreshRequested(after: old, at: Self.epoch, leeway: Self.leeway) == .deliver(refreshed))
    }
}
