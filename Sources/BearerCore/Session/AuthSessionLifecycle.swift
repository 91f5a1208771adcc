#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// The lifecycle of an ``AuthSession``, written down as a value: the phase the session is in, the
/// state it holds, and pure transitions from an event to the next phase and the step the actor
/// must perform (deliver a token, fail, reload under the lock, save, refresh).
///
/// ```
///             save ok                 refresh ok / replace / merge
///   unsaved ─────────► saved ◄───────────────────────────────┐
///      ▲  ▲              │ stale, Retry-After        │        │
///      │  │ save failed  ▼                           │ (all go through unsaved)
///      │  └────────── backingOff(until) ── time passes ┘
///      │ invalid_grant (marked, then saved)
///      └──────────────────────────────────────────► signInRequired
///   any phase ── stored copy gone / signOut ──► signedOut
///   signInRequired, signedOut ── usable stored copy (a sign-in elsewhere) ──► saved
/// ```
///
/// The actor holds one of these and performs only what its transitions return; every decision is
/// here, tested without I/O.
package struct AuthSessionLifecycle: Sendable {
    /// Where the session stands.
    package enum Phase: Sendable {
        /// The state is the stored copy (restored, or saved by this session).
        case saved
        /// The state is newer than the stored copy (its save failed or is under way); it is saved
        /// before it is used.
        case unsaved
        /// A refresh failed and the server asked to wait (`Retry-After`); a stale token fails
        /// with `error` until `until`.
        case backingOff(until: Date, error: any Error)
        /// The grant is gone (`invalid_grant`); the user must sign in again.
        case signInRequired
        /// The session was signed out, here or by another process.
        case signedOut
    }

    /// What to do when a caller asks for a token, before taking any lock.
    package enum TokenRequestStep: Sendable {
        /// The state's token is fresh: use it.
        case deliver(AuthState)
        /// Fail at once with this error.
        case fail(any Error)
        /// Take the store's lock, reload the stored copy, then ask ``nextStepHoldingLock``.
        case reloadHoldingLock
    }

    /// What to do next while holding the store's lock.
    package enum LockedStep: Sendable {
        /// The state's token is fresh: use it.
        case deliver(AuthState)
        /// Fail with this error.
        case fail(any Error)
        /// Save this state, then report ``saveSucceeded(_:)`` and ask again.
        case save(AuthState)
        /// Refresh this state, then report ``refreshSucceeded(_:)`` or ``refreshFailed(_:at:)``.
        case refresh(AuthState)
    }

    /// The session's current state.
    package private(set) var state: AuthState
    /// Where the session stands.
    package private(set) var phase: Phase

    /// A session read from its store.
    package init(stored state: AuthState) {
        self.state = state
        self.phase = state.signInRequired ? .signInRequired : .saved
    }

    /// Whether the session can authorize requests at all.
    package var canAuthorize: Bool {
        switch phase {
        case .signInRequired, .signedOut: false
        case .saved, .unsaved, .backingOff: state.accessToken != nil || state.refreshToken != nil
        }
    }

    // MARK: - Asking for a token

    /// A caller wants a token at `now`; with `staleToken`, a server rejected that token.
    package mutating func tokenRequested(
        at now: Date,
        leeway: TimeInterval,
        rejecting staleToken: AccessToken?
    ) -> TokenRequestStep {
        switch phase {
        case .saved:
            return isStale(at: now, leeway: leeway, rejecting: staleToken) ? .reloadHoldingLock : .deliver(state)
        case .backingOff(let until, let error):
            guard isStale(at: now, leeway: leeway, rejecting: staleToken) else { return .deliver(state) }
            guard now >= until else { return .fail(error) }
            phase = .saved
            return .reloadHoldingLock
        case .unsaved, .signInRequired, .signedOut:
            return .reloadHoldingLock
        }
    }

    /// The step after the stored copy was reloaded, or after a save or a refresh, under the lock.
    ///
    /// - Parameter hasRefreshed: Whether this locked run already refreshed: its token is then used
    ///   even if its lifetime is shorter than the leeway, so a run never refreshes twice.
    package func nextStepHoldingLock(
        at now: Date,
        leeway: TimeInterval,
        rejecting staleToken: AccessToken?,
        hasRefreshed: Bool
    ) -> LockedStep {
        switch phase {
        case .unsaved:
            return .save(state)
        case .signedOut:
            return .fail(BearerError.signInRequired("The user signed out; sign in again."))
        case .signInRequired:
            return .fail(Self.signInRequiredError(state.signInRequiredError))
        case .backingOff(let until, let error) where now < until && !hasRefreshed:
            return isStale(at: now, leeway: leeway, rejecting: staleToken) ? .fail(error) : .deliver(state)
        case .saved, .backingOff:
            if hasRefreshed {
                guard state.accessToken != nil else { return .fail(Self.noUsableAccessToken) }
                return .deliver(state)
            }
            return isStale(at: now, leeway: leeway, rejecting: staleToken) ? .refresh(state) : .deliver(state)
        }
    }

    // MARK: - The stored copy

    /// The one way the session catches up with its stored copy, read under the store's lock.
    ///
    /// - An unsaved state is newer than the stored copy: it is kept (and saved next).
    /// - A session signed out or needing sign-in takes a usable stored copy: someone signed in
    ///   again under the same key.
    /// - An active session takes the stored copy of the same user (another process refreshed);
    ///   it is signed out when the copy is gone, and refuses another user's copy.
    ///
    /// - Returns: Whether the state changed, so observers must hear of it.
    /// - Throws: ``BearerError/Kind/signInRequired`` when the stored copy is gone,
    ///   ``BearerError/Kind/userMismatch`` when another account holds the key.
    package mutating func storedCopyLoaded(_ stored: AuthState?) throws -> Bool {
        switch phase {
        case .unsaved:
            return false
        case .signedOut, .signInRequired:
            guard let stored, stored != state, !stored.signInRequired,
                stored.accessToken != nil || stored.refreshToken != nil
            else { return false }
            adopt(stored)
            return true
        case .saved, .backingOff:
            guard let stored else {
                phase = .signedOut
                throw BearerError.signInRequired(
                    "The session was signed out (its saved copy is gone); sign in again."
                )
            }
            guard stored != state else { return false }
            guard stored.mayBeSameUser(as: state) else {
                throw BearerError.userMismatch(
                    "Another account has signed in under this session's key; restore the session to use that account."
                )
            }
            adopt(stored)
            return true
        }
    }

    private mutating func adopt(_ stored: AuthState) {
        state = stored
        phase = stored.signInRequired ? .signInRequired : .saved
    }

    // MARK: - Results of the actor's work

    /// A save of `saved` succeeded.
    ///
    /// - Returns: Whether the saved state is the current one, so observers must hear of it.
    package mutating func saveSucceeded(_ saved: AuthState) -> Bool {
        guard saved == state, case .unsaved = phase else { return false }
        phase = state.signInRequired ? .signInRequired : .saved
        return true
    }

    /// A refresh succeeded: the new state must be saved before it is used.
    package mutating func refreshSucceeded(_ refreshed: AuthState) {
        state = refreshed
        phase = .unsaved
    }

    /// A refresh failed at `now`.
    ///
    /// - Returns: The error to throw now, or `nil` when the session was marked as needing a new
    ///   sign-in, which must be saved first (the next step is that save).
    package mutating func refreshFailed(_ error: any Error, at now: Date) -> (any Error)? {
        if let error = error as? OAuthError, error.signInRequired {
            state = state.markingSignInRequired(error)
            phase = .unsaved
            return nil
        }
        if let delay = Self.retryAfter(of: error) {
            phase = .backingOff(until: now.addingTimeInterval(delay), error: error)
        }
        return error
    }

    /// A new sign-in replaces the session.
    ///
    /// - Returns: The state to save.
    package mutating func replaced(with newState: AuthState) -> AuthState {
        state = newState
        phase = .unsaved
        return newState
    }

    /// An incremental grant arrived; it is merged into the session (after ``storedCopyLoaded(_:)``).
    ///
    /// - Returns: The merged state, to save.
    /// - Throws: ``BearerError/Kind/userMismatch`` when another account answered; nothing changes.
    package mutating func grantReceived(_ grant: AuthState) throws -> AuthState {
        let merged = try state.merging(additionalGrant: grant)
        state = merged
        phase = .unsaved
        return merged
    }

    /// The stored session was removed: the session is signed out and forgets its tokens.
    package mutating func signedOut() {
        phase = .signedOut
        state.accessToken = nil
        state.refreshToken = nil
        state.idToken = nil
    }

    // MARK: - Rules

    private func isStale(at now: Date, leeway: TimeInterval, rejecting staleToken: AccessToken?) -> Bool {
        if let staleToken { return state.accessToken == nil || state.accessToken == staleToken }
        return state.needsRefresh(at: now, leeway: leeway)
    }

    /// A refresh whose answer kept its refresh token but refused its access token.
    private static let noUsableAccessToken = BearerError.invalidResponse(
        "The token endpoint's answer to the refresh held no usable access token; the refresh token it sent "
            + "was saved. Try again; if this persists, the server is misconfigured."
    )

    private static func signInRequiredError(_ error: OAuthError?) -> BearerError {
        guard let error else {
            return BearerError.signInRequired("The session's grant is no longer valid; sign in again.")
        }
        var reason = "The session's grant is no longer valid (\(error.code)"
        if let description = error.errorDescription { reason += ": \(description)" }
        reason += "); the user must sign in again."
        return BearerError.signInRequired(reason)
    }

    private static func retryAfter(of error: any Error) -> TimeInterval? {
        if let error = error as? BearerError { return error.retryAfter }
        if let error = error as? OAuthError { return error.retryAfter }
        return nil
    }
}
