import Bearer
import Foundation
import Testing

@_spi(CommandLine) @_spi(Migration) @testable import BearerCore

/// Every (phase, event) pair of AuthSession's state machine, without I/O: each test reaches the
/// phase through the machine's own events and compares the actions it returns.
@Suite("AuthSession.StateMachine: every phase against every event")
struct AuthSessionStateMachineTests {
    typealias Machine = AuthSession.StateMachine

    /// The phases, by name, so tests can enumerate them.
    enum PhaseName: String, CaseIterable, CustomTestStringConvertible {
        case saved, unsaved, backingOff, backingOffExpired, signInRequired, signedOut
        var testDescription: String { rawValue }
    }

    static let epoch = Fixtures.epoch
    static let leeway: TimeInterval = 60
    static let retryAfter: TimeInterval = 120
    /// When the back-off phases' refresh failed: the token was already stale.
    static let failedAt = epoch.addingTimeInterval(3550)

    /// A session for user-1 whose token expires `expiresIn` after the epoch.
    static func state(
        access: String = "at-1",
        refresh: String = "rt-1",
        subject: String = "user-1",
        email: String? = nil,
        expiresIn: TimeInterval = 3600
    ) -> AuthState {
        AuthState(
            server: Fixtures.server,
            client: Fixtures.publicClient,
            accessToken: AccessToken(access),
            accessTokenExpiresAt: epoch.addingTimeInterval(expiresIn),
            refreshToken: RefreshToken(refresh),
            grantedScopes: ["email"],
            user: AuthState.User(subject: subject, email: email)
        )
    }

    static let invalidGrant = OAuthError(code: .invalidGrant, statusCode: 400)
    static let busy = BearerError.serverUnavailable("busy", retryAfter: retryAfter)
    static let signedOutFailure = Machine.Failure(BearerError.signInRequired("signed out"))
    /// A run's task, as the actor would start it; actions name it.
    static let run = Machine.Run { state() }
    static let otherRun = Machine.Run { state() }

    /// Starts a run at `now`, as the actor does on `startRun`.
    static func startRun(
        _ machine: inout Machine, at now: Date = epoch.addingTimeInterval(3590), task: Machine.Run = run
    ) {
        #expect(machine.tokenRequested(at: now, leeway: leeway) == .startRun)
        machine.runStarted(task)
    }

    /// Runs a refresh that the run asks for at a stale time.
    static func refreshInRun(_ machine: inout Machine, at now: Date = epoch.addingTimeInterval(3590)) -> AuthState {
        startRun(&machine, at: now)
        #expect(machine.storedCopyLoaded(machine.state) == .unchanged)
        let stale = machine.state
        #expect(machine.nextStepHoldingLock(at: now, leeway: leeway) == .refresh(stale))
        return stale
    }

    /// The machine in `phase`, idle, reached through events only.
    static func machine(in phase: PhaseName) -> Machine {
        var machine = Machine(stored: state())
        switch phase {
        case .saved:
            break
        case .unsaved:
            // A refresh whose save failed: the run ended with the store's error.
            _ = refreshInRun(&machine)
            machine.refreshSucceeded(state(access: "at-2", refresh: "rt-2"))
            #expect(
                machine.nextStepHoldingLock(at: epoch, leeway: leeway)
                    == .save(state(access: "at-2", refresh: "rt-2"), over: state()))
            machine.runEnded()
        case .backingOff, .backingOffExpired:
            _ = refreshInRun(&machine, at: failedAt)
            #expect(machine.refreshFailed(busy, at: failedAt) == .fail(Machine.Failure(busy)))
            machine.runEnded()
        case .signInRequired:
            machine = Machine(stored: state().markingSignInRequired(invalidGrant))
        case .signedOut:
            machine.signedOut()
        }
        #expect(machine.description == (phase == .backingOffExpired ? "backingOff" : phase.rawValue))
        return machine
    }

    /// A time at which the phase's token is fresh.
    static func freshTime(for phase: PhaseName) -> Date { epoch }

    /// A time at which the token is stale: within the back-off, or after it for the expired one.
    static func staleTime(for phase: PhaseName) -> Date {
        phase == .backingOffExpired ? failedAt.addingTimeInterval(retryAfter + 1) : epoch.addingTimeInterval(3590)
    }

    // MARK: - Asking for a token, before the lock

    @Test(
        "A token is delivered when fresh; otherwise a run starts, or the back-off fails it",
        arguments: PhaseName.allCases)
    func tokenRequested(phase: PhaseName) {
        let held = Self.machine(in: phase).state
        let deliver = Machine.TokenAction.deliver(held)
        let backOff = Machine.TokenAction.fail(Machine.Failure(Self.busy))
        let expected:
            [PhaseName: (fresh: Machine.TokenAction, stale: Machine.TokenAction, rejected: Machine.TokenAction)] = [
                .saved: (deliver, .startRun, .startRun),
                .unsaved: (.startRun, .startRun, .startRun),
                .backingOff: (deliver, backOff, backOff),
                .backingOffExpired: (deliver, .startRun, .startRun),
                .signInRequired: (.startRun, .startRun, .startRun),
                .signedOut: (.startRun, .startRun, .startRun),
            ]
        var fresh = Self.machine(in: phase)
        var stale = Self.machine(in: phase)
        var rejected = Self.machine(in: phase)
        var forced = Self.machine(in: phase)
        let rejectedAt = phase == .backingOffExpired ? Self.staleTime(for: phase) : Self.freshTime(for: phase)
        #expect(fresh.tokenRequested(at: Self.freshTime(for: phase), leeway: Self.leeway) == expected[phase]?.fresh)
        #expect(stale.tokenRequested(at: Self.staleTime(for: phase), leeway: Self.leeway) == expected[phase]?.stale)
        #expect(
            rejected.tokenRejected(held.accessToken ?? AccessToken("gone"), at: rejectedAt, leeway: Self.leeway)
                == expected[phase]?.rejected)
        #expect(
            forced.refreshRequested(after: held.accessToken, at: rejectedAt, leeway: Self.leeway)
                == expected[phase]?.rejected, "a refresh asked for is answered as a rejection of the token seen")
    }

    @Test("A rejection of a token the session no longer holds is answered with the current one")
    func rejectionOfAnOldToken() {
        var machine = Self.machine(in: .saved)
        #expect(
            machine.tokenRejected(AccessToken("at-0"), at: Self.epoch, leeway: Self.leeway) == .deliver(Self.state()))
        #expect(machine.refreshRequested(after: nil, at: Self.epoch, leeway: Self.leeway) == .deliver(Self.state()))
    }

    @Test("A back-off that has expired returns to saved when a token is asked for")
    func expiredBackOffReturnsToSaved() {
        var machine = Self.machine(in: .backingOffExpired)
        #expect(machine.tokenRequested(at: Self.staleTime(for: .backingOffExpired), leeway: Self.leeway) == .startRun)
        machine.runStarted(Self.run)
        #expect(machine.description == "saved, running")
    }

    // MARK: - Under the lock

    /// Every phase a run can start in: a back-off refuses to start one (see `tokenRequested`).
    @Test(
        "Under the lock: unsaved states are saved first, stale ones refreshed, dead ones refused",
        arguments: [PhaseName.saved, .unsaved, .backingOffExpired, .signInRequired, .signedOut])
    func nextStepHoldingLock(phase: PhaseName) throws {
        var machine = Self.machine(in: phase)
        Self.startRun(&machine, at: Self.staleTime(for: phase))
        let held = machine.state
        let signInRequired = Machine.Failure(BearerError.signInRequired("grant gone"))
        let expected: [PhaseName: (fresh: Machine.LockedAction, stale: Machine.LockedAction)] = [
            .saved: (.deliver(held), .refresh(held)),
            .unsaved: (.save(held, over: Self.state()), .save(held, over: Self.state())),
            .backingOffExpired: (.deliver(held), .refresh(held)),
            .signInRequired: (.fail(signInRequired), .fail(signInRequired)),
            .signedOut: (.fail(Self.signedOutFailure), .fail(Self.signedOutFailure)),
        ]
        var fresh = machine
        #expect(
            fresh.nextStepHoldingLock(at: Self.freshTime(for: phase), leeway: Self.leeway) == expected[phase]?.fresh)
        #expect(
            machine.nextStepHoldingLock(at: Self.staleTime(for: phase), leeway: Self.leeway) == expected[phase]?.stale)
    }

    @Test("A run refreshes once: its new token is delivered even when it lives shorter than the leeway")
    func refreshedTokenUsedEvenIfShortLived() {
        var machine = Self.machine(in: .saved)
        _ = Self.refreshInRun(&machine)
        let refreshed = Self.state(access: "at-2", expiresIn: 0)
        machine.refreshSucceeded(refreshed)
        #expect(
            machine.nextStepHoldingLock(at: Self.epoch, leeway: Self.leeway) == .save(refreshed, over: Self.state()))
        machine.saveSucceeded(refreshed)
        #expect(machine.description == "saved, running")
        #expect(machine.nextStepHoldingLock(at: Self.epoch, leeway: Self.leeway) == .deliver(refreshed))
        #expect(machine.description == "saved, decided")
        machine.runEnded()
        #expect(machine.tokenRequested(at: Self.epoch, leeway: Self.leeway) == .startRun, "the next caller refreshes")
    }

    // MARK: - The stored copy

    enum StoredCopy: String, CaseIterable, CustomTestStringConvertible {
        /// `base` is the copy the machine's state was made from (itself, once saved).
        case base, gone, same, newerSameUser, otherUser, marked
        var testDescription: String { rawValue }
    }

    static func storedCopy(_ copy: StoredCopy, of machine: Machine) -> AuthState? {
        let state = machine.state
        return switch copy {
        case .base: machine.storedCopy
        case .gone: AuthState?.none
        case .same: state
        case .newerSameUser: Self.state(access: "at-9", refresh: "rt-9")
        case .otherUser: Self.state(access: "at-o", refresh: "rt-o", subject: "user-2")
        case .marked: Self.state(access: "at-m", refresh: "rt-m").markingSignInRequired(invalidGrant)
        }
    }

    static let gone = Machine.StoredCopyAction.fail(Machine.Failure(BearerError.signInRequired("gone")))
    static let mismatch = Machine.StoredCopyAction.fail(Machine.Failure(BearerError.userMismatch("other")))
    /// Another account's new sign-in, taken by a session that was signed out or marked: the call
    /// that took it fails once.
    static let otherAccount = Machine.StoredCopyAction.adoptedOtherAccount(
        Machine.Failure(BearerError.userMismatch("other")))
    /// An unsaved state whose stored copy was removed, or taken by another account, since it was
    /// made: its grant is revoked, and the call fails.
    static func orphan(_ failure: BearerError) -> Machine.StoredCopyAction {
        .revokeOrphan(state(access: "at-2", refresh: "rt-2"), then: Machine.Failure(failure))
    }

    /// What reconciling each phase with each stored copy gives: the action, then the phase and the
    /// access token held after.
    static let reconciled: [PhaseName: [StoredCopy: (Machine.StoredCopyAction, String)]] = [
        .saved: [
            .base: (.unchanged, "saved at-1"), .gone: (gone, "signedOut at-1"), .same: (.unchanged, "saved at-1"),
            .newerSameUser: (.adopted, "saved at-9"), .otherUser: (mismatch, "saved at-1"),
            .marked: (.adopted, "signInRequired at-m"),
        ],
        .backingOff: [
            .base: (.unchanged, "backingOff at-1"), .gone: (gone, "signedOut at-1"),
            .same: (.unchanged, "backingOff at-1"),
            .newerSameUser: (.adopted, "saved at-9"), .otherUser: (mismatch, "backingOff at-1"),
            .marked: (.adopted, "signInRequired at-m"),
        ],
        // Saved while its stored copy is still the one it was made from; else the stored copy owns
        // the key: the same account's is adopted, and a removal or another account orphans it.
        .unsaved: [
            .base: (.unchanged, "unsaved at-2"),
            .gone: (orphan(BearerError.signInRequired("gone")), "signedOut none"),
            .same: (.adopted, "saved at-2"), .newerSameUser: (.adopted, "saved at-9"),
            .otherUser: (orphan(BearerError.userMismatch("other")), "signedOut none"),
            .marked: (.adopted, "signInRequired at-m"),
        ],
        .signInRequired: [
            .base: (.unchanged, "signInRequired at-1"), .gone: (.unchanged, "signInRequired at-1"),
            .same: (.unchanged, "signInRequired at-1"),
            .newerSameUser: (.adopted, "saved at-9"), .otherUser: (otherAccount, "saved at-o"),
            .marked: (.unchanged, "signInRequired at-1"),
        ],
        .signedOut: [
            .base: (.unchanged, "signedOut none"), .gone: (.unchanged, "signedOut none"),
            .same: (.unchanged, "signedOut none"),
            .newerSameUser: (.adopted, "saved at-9"), .otherUser: (otherAccount, "saved at-o"),
            .marked: (.unchanged, "signedOut none"),
        ],
    ]

    @Test(
        "Reconciling with the stored copy: the one path, for every phase and every copy",
        arguments: [PhaseName.saved, .backingOff, .unsaved, .signInRequired, .signedOut], StoredCopy.allCases
    )
    func storedCopyLoaded(phase: PhaseName, copy: StoredCopy) throws {
        var machine = Self.machine(in: phase)
        let action = machine.storedCopyLoaded(Self.storedCopy(copy, of: machine))
        let expected = try #require(Self.reconciled[phase]?[copy])
        #expect(action == expected.0)
        #expect("\(machine.description) \(machine.state.accessToken?.value ?? "none")" == expected.1)
    }
}
