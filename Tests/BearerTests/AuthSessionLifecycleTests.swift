import Bearer
import Foundation
import Testing

/// Every (phase, event) pair of AuthSession's lifecycle, without I/O: each test builds the
/// lifecycle in each phase through its own transitions and checks the next phase and the step.
@Suite("AuthSession lifecycle: every phase against every event")
struct AuthSessionLifecycleTests {
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

    /// A session for user-1 whose token expires an hour after the epoch.
    static func state(
        access: String = "at-1",
        refresh: String = "rt-1",
        subject: String = "user-1",
        expiresIn: TimeInterval = 3600
    ) -> AuthState {
        AuthState(
            server: Fixtures.server,
            client: Fixtures.publicClient,
            accessToken: AccessToken(access),
            accessTokenExpiresAt: epoch.addingTimeInterval(expiresIn),
            refreshToken: RefreshToken(refresh),
            grantedScopes: ["email"],
            user: AuthState.User(subject: subject)
        )
    }

    static let invalidGrant = OAuthError(code: .invalidGrant, statusCode: 400)
    static let busy = BearerError.serverUnavailable("busy", retryAfter: retryAfter)

    /// The lifecycle in `phase`, reached through transitions only.
    static func lifecycle(in phase: PhaseName) -> AuthSessionLifecycle {
        var lifecycle = AuthSessionLifecycle(stored: state())
        switch phase {
        case .saved:
            break
        case .unsaved:
            lifecycle.refreshSucceeded(state(access: "at-2", refresh: "rt-2"))
        case .backingOff, .backingOffExpired:
            _ = lifecycle.refreshFailed(busy, at: failedAt)
        case .signInRequired:
            lifecycle = AuthSessionLifecycle(stored: state().markingSignInRequired(invalidGrant))
        case .signedOut:
            lifecycle.signedOut()
        }
        return lifecycle
    }

    /// A time at which the phase's token is fresh.
    static func freshTime(for phase: PhaseName) -> Date {
        epoch
    }

    /// A time at which the token is stale: within the back-off, or after it for the expired one.
    static func staleTime(for phase: PhaseName) -> Date {
        phase == .backingOffExpired ? failedAt.addingTimeInterval(retryAfter + 1) : epoch.addingTimeInterval(3590)
    }

    static func name(of phase: AuthSessionLifecycle.Phase) -> String {
        switch phase {
        case .saved: "saved"
        case .unsaved: "unsaved"
        case .backingOff: "backingOff"
        case .signInRequired: "signInRequired"
        case .signedOut: "signedOut"
        }
    }

    static func describe(_ step: AuthSessionLifecycle.TokenRequestStep) -> String {
        switch step {
        case .deliver(let state): "deliver \(state.accessToken == nil ? "nothing" : "a token")"
        case .fail(let error): "fail \(kind(of: error))"
        case .reloadHoldingLock: "reload"
        }
    }

    static func describe(_ step: AuthSessionLifecycle.LockedStep) -> String {
        switch step {
        case .deliver: "deliver"
        case .fail(let error): "fail \(kind(of: error))"
        case .save: "save"
        case .refresh: "refresh"
        }
    }

    static func kind(of error: any Error) -> String {
        if let error = error as? BearerError { return error.kind.description }
        if let error = error as? OAuthError { return error.code.rawValue }
        return "\(type(of: error))"
    }

    // MARK: - Asking for a token, before the lock

    @Test(
        "A request for a token: fresh tokens are delivered, everything else reloads or waits",
        arguments: PhaseName.allCases)
    func tokenRequested(phase: PhaseName) {
        let expected: [PhaseName: (fresh: String, stale: String, rejected: String)] = [
            .saved: ("deliver a token", "reload", "reload"),
            .unsaved: ("reload", "reload", "reload"),
            .backingOff: ("deliver a token", "fail serverUnavailable", "fail serverUnavailable"),
            .backingOffExpired: ("deliver a token", "reload", "reload"),
            .signInRequired: ("reload", "reload", "reload"),
            .signedOut: ("reload", "reload", "reload"),
        ]
        var fresh = Self.lifecycle(in: phase)
        var stale = Self.lifecycle(in: phase)
        var rejected = Self.lifecycle(in: phase)
        let current = rejected.state.accessToken
        let freshStep = fresh.tokenRequested(at: Self.freshTime(for: phase), leeway: Self.leeway, rejecting: nil)
        let staleStep = stale.tokenRequested(at: Self.staleTime(for: phase), leeway: Self.leeway, rejecting: nil)
        let rejectedStep = rejected.tokenRequested(
            at: phase == .backingOffExpired ? Self.staleTime(for: phase) : Self.freshTime(for: phase),
            leeway: Self.leeway,
            rejecting: current ?? AccessToken("gone")
        )
        #expect(Self.describe(freshStep) == expected[phase]?.fresh)
        #expect(Self.describe(staleStep) == expected[phase]?.stale)
        #expect(Self.describe(rejectedStep) == expected[phase]?.rejected)
    }

    @Test("A back-off that has expired returns to saved when a token is asked for")
    func expiredBackOffReturnsToSaved() {
        var lifecycle = Self.lifecycle(in: .backingOffExpired)
        _ = lifecycle.tokenRequested(at: Self.staleTime(for: .backingOffExpired), leeway: Self.leeway, rejecting: nil)
        #expect(Self.name(of: lifecycle.phase) == "saved")
    }

    // MARK: - Under the lock

    @Test(
        "Under the lock: unsaved states are saved first, stale ones refreshed, dead ones refused",
        arguments: PhaseName.allCases)
    func nextStepHoldingLock(phase: PhaseName) {
        let expected: [PhaseName: (fresh: String, stale: String, afterRefresh: String)] = [
            .saved: ("deliver", "refresh", "deliver"),
            .unsaved: ("save", "save", "save"),
            .backingOff: ("deliver", "fail serverUnavailable", "deliver"),
            .backingOffExpired: ("deliver", "refresh", "deliver"),
            .signInRequired: ("fail signInRequired", "fail signInRequired", "fail signInRequired"),
            .signedOut: ("fail signInRequired", "fail signInRequired", "fail signInRequired"),
        ]
        let lifecycle = Self.lifecycle(in: phase)
        let fresh = lifecycle.nextStepHoldingLock(
            at: Self.freshTime(for: phase), leeway: Self.leeway, rejecting: nil, hasRefreshed: false)
        let stale = lifecycle.nextStepHoldingLock(
            at: Self.staleTime(for: phase), leeway: Self.leeway, rejecting: nil, hasRefreshed: false)
        let afterRefresh = lifecycle.nextStepHoldingLock(
            at: Self.staleTime(for: phase), leeway: Self.leeway, rejecting: nil, hasRefreshed: true)
        #expect(Self.describe(fresh) == expected[phase]?.fresh)
        #expect(Self.describe(stale) == expected[phase]?.stale)
        #expect(Self.describe(afterRefresh) == expected[phase]?.afterRefresh)
    }

    @Test("A token shorter-lived than the leeway is used once refreshed, so a run never refreshes twice")
    func refreshedTokenUsedEvenIfShortLived() {
        var lifecycle = Self.lifecycle(in: .saved)
        lifecycle.refreshSucceeded(Self.state(access: "at-2", expiresIn: 0))
        let settled = lifecycle.saveSucceeded(lifecycle.state)
        #expect(settled)
        let step = lifecycle.nextStepHoldingLock(at: Self.epoch, leeway: 60, rejecting: nil, hasRefreshed: true)
        #expect(Self.describe(step) == "deliver")
    }

    // MARK: - The stored copy

    enum StoredCopy: String, CaseIterable, CustomTestStringConvertible {
        case gone, same, newerSameUser, otherUser, marked
        var testDescription: String { rawValue }
    }

    static func storedCopy(_ copy: StoredCopy, like state: AuthState) -> AuthState? {
        switch copy {
        case .gone: nil
        case .same: state
        case .newerSameUser: Self.state(access: "at-9", refresh: "rt-9")
        case .otherUser: Self.state(access: "at-o", refresh: "rt-o", subject: "user-2")
        case .marked: Self.state(access: "at-m", refresh: "rt-m").markingSignInRequired(invalidGrant)
        }
    }

    /// What reconciling each phase with each stored copy gives: the phase after, the access token
    /// held after, and whether it threw (and what).
    static let reconciled: [PhaseName: [StoredCopy: String]] = [
        .saved: [
            .gone: "signedOut at-1 threw signInRequired", .same: "saved at-1",
            .newerSameUser: "saved at-9 changed", .otherUser: "saved at-1 threw userMismatch",
            .marked: "signInRequired at-m changed",
        ],
        .backingOff: [
            .gone: "signedOut at-1 threw signInRequired", .same: "backingOff at-1",
            .newerSameUser: "saved at-9 changed", .otherUser: "backingOff at-1 threw userMismatch",
            .marked: "signInRequired at-m changed",
        ],
        .unsaved: [
            .gone: "unsaved at-2", .same: "unsaved at-2", .newerSameUser: "unsaved at-2",
            .otherUser: "unsaved at-2", .marked: "unsaved at-2",
        ],
        .signInRequired: [
            .gone: "signInRequired at-1", .same: "signInRequired at-1", .newerSameUser: "saved at-9 changed",
            .otherUser: "saved at-o changed", .marked: "signInRequired at-1",
        ],
        .signedOut: [
            .gone: "signedOut none", .same: "signedOut none", .newerSameUser: "saved at-9 changed",
            .otherUser: "saved at-o changed", .marked: "signedOut none",
        ],
    ]

    @Test(
        "Reconciling with the stored copy: the one path, for every phase and every copy",
        arguments: [PhaseName.saved, .backingOff, .unsaved, .signInRequired, .signedOut], StoredCopy.allCases
    )
    func storedCopyLoaded(phase: PhaseName, copy: StoredCopy) {
        var lifecycle = Self.lifecycle(in: phase)
        var outcome: String
        do {
            let changed = try lifecycle.storedCopyLoaded(Self.storedCopy(copy, like: lifecycle.state))
            outcome = changed ? " changed" : ""
        } catch {
            outcome = " threw \(Self.kind(of: error))"
        }
        let held = lifecycle.state.accessToken?.value ?? "none"
        #expect("\(Self.name(of: lifecycle.phase)) \(held)\(outcome)" == Self.reconciled[phase]?[copy])
    }
}
