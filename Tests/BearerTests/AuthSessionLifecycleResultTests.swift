import Bearer
import Foundation
import Testing

/// The lifecycle's transitions for the results of the actor's work (saves, refreshes, sign-ins,
/// grants, sign-outs), in every phase; the phases and fixtures are in AuthSessionLifecycleTests.
extension AuthSessionLifecycleTests {
    @Test("A save settles only the state it saved", arguments: PhaseName.allCases)
    func saveSucceeded(phase: PhaseName) {
        var lifecycle = Self.lifecycle(in: phase)
        let before = Self.name(of: lifecycle.phase)
        let settledOlder = lifecycle.saveSucceeded(Self.state(access: "older"))
        #expect(!settledOlder)
        #expect(Self.name(of: lifecycle.phase) == before)
        let settled = lifecycle.saveSucceeded(lifecycle.state)
        #expect(settled == (phase == .unsaved))
        #expect(Self.name(of: lifecycle.phase) == (phase == .unsaved ? "saved" : before))
    }

    @Test("A marked state that was saved needs a new sign-in")
    func savedMarkNeedsSignIn() {
        var lifecycle = Self.lifecycle(in: .saved)
        let failure = lifecycle.refreshFailed(Self.invalidGrant, at: Self.epoch)
        #expect(failure == nil)
        #expect(Self.name(of: lifecycle.phase) == "unsaved")
        #expect(lifecycle.state.signInRequired)
        let settled = lifecycle.saveSucceeded(lifecycle.state)
        #expect(settled)
        #expect(Self.name(of: lifecycle.phase) == "signInRequired")
        #expect(!lifecycle.canAuthorize)
    }

    @Test("Refresh outcomes: success is unsaved, invalid_grant marks, Retry-After backs off, others pass")
    func refreshOutcomes() {
        var succeeded = Self.lifecycle(in: .saved)
        succeeded.refreshSucceeded(Self.state(access: "at-2"))
        #expect(Self.name(of: succeeded.phase) == "unsaved")
        #expect(succeeded.state.accessToken == AccessToken("at-2"))

        var busy = Self.lifecycle(in: .saved)
        let busyError = busy.refreshFailed(Self.busy, at: Self.failedAt)
        #expect(busyError.map(Self.kind(of:)) == "serverUnavailable")
        guard case .backingOff(let until, _) = busy.phase else {
            Issue.record("expected backingOff, got \(Self.name(of: busy.phase))")
            return
        }
        #expect(until == Self.failedAt.addingTimeInterval(Self.retryAfter))

        var offline = Self.lifecycle(in: .saved)
        let offlineError = offline.refreshFailed(BearerError.network("offline"), at: Self.epoch)
        #expect(offlineError.map(Self.kind(of:)) == "network")
        #expect(Self.name(of: offline.phase) == "saved")
        #expect(offline.state == Self.state())
    }

    @Test("A new sign-in replaces any phase and must be saved", arguments: PhaseName.allCases)
    func replaced(phase: PhaseName) {
        var lifecycle = Self.lifecycle(in: phase)
        let newState = Self.state(access: "at-new", subject: "user-3")
        let toSave = lifecycle.replaced(with: newState)
        #expect(toSave == newState)
        #expect(Self.name(of: lifecycle.phase) == "unsaved")
        #expect(lifecycle.canAuthorize)
        let settled = lifecycle.saveSucceeded(newState)
        #expect(settled)
        #expect(Self.name(of: lifecycle.phase) == "saved")
    }

    @Test("An incremental grant merges for the same user and is refused for another", arguments: PhaseName.allCases)
    func grantReceived(phase: PhaseName) throws {
        var lifecycle = Self.lifecycle(in: phase)
        let before = lifecycle.state
        let beforePhase = Self.name(of: lifecycle.phase)
        #expect(throws: BearerError.self) {
            try lifecycle.grantReceived(Self.state(access: "at-o", subject: "user-2"))
        }
        #expect(lifecycle.state == before)
        #expect(Self.name(of: lifecycle.phase) == beforePhase)
        var grant = Self.state(access: "at-g", refresh: "rt-g")
        grant.grantedScopes = ["email", "drive"]
        let merged = try lifecycle.grantReceived(grant)
        #expect(merged.grantedScopes == ["email", "drive"])
        #expect(!merged.signInRequired)
        #expect(Self.name(of: lifecycle.phase) == "unsaved")
    }

    @Test("Signing out forgets the tokens and refuses every later request", arguments: PhaseName.allCases)
    func signedOut(phase: PhaseName) {
        var lifecycle = Self.lifecycle(in: phase)
        lifecycle.signedOut()
        #expect(Self.name(of: lifecycle.phase) == "signedOut")
        #expect(lifecycle.state.accessToken == nil && lifecycle.state.refreshToken == nil)
        #expect(!lifecycle.canAuthorize)
        let step = lifecycle.nextStepHoldingLock(at: Self.epoch, leeway: 60, rejecting: nil, hasRefreshed: false)
        #expect(Self.describe(step) == "fail signInRequired")
    }

    @Test("canAuthorize holds in every phase but needing sign-in and signed out", arguments: PhaseName.allCases)
    func canAuthorize(phase: PhaseName) {
        #expect(Self.lifecycle(in: phase).canAuthorize == ![.signInRequired, .signedOut].contains(phase))
    }
}
