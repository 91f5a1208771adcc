#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension AuthSession.StateMachine {
    /// An error as an ``AuthSession/StateMachine`` action carries it, so actions can be compared:
    /// equal to another when both are ``BearerError``s of the same kind, equal ``OAuthError``s, or
    /// errors of the same other type that describe themselves the same way.
    @_spi(CommandLine) public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The error to throw.
        let error: any Error

        /// Wraps `error`.
        init(_ error: any Error) {
            self.error = error
        }

        /// The wrapped error's description.
        @_spi(CommandLine) public var description: String { "\(error)" }

        /// See the type's summary.
        @_spi(CommandLine) public static func == (lhs: Failure, rhs: Failure) -> Bool {
            switch (lhs.error, rhs.error) {
            case (let left as BearerError, let right as BearerError): return left == right
            case (let left as OAuthError, let right as OAuthError): return left == right
            default: break
            }
            return type(of: lhs.error) == type(of: rhs.error) && "\(lhs.error)" == "\(rhs.error)"
        }
    }

    /// Where the session stands: the state is the stored copy (`saved`) or newer and saved before
    /// use (`unsaved`); a refresh failed and the server asked to wait (`backingOff`, a stale token
    /// fails until `until`); the grant is gone (`signInRequired`); it was signed out (`signedOut`).
    enum Phase: Sendable {
        case saved(AuthState)
        /// `newGrant`: a sign-in or an incremental grant, not a refresh of `over`.
        case unsaved(AuthState, over: AuthState?, newGrant: Bool)
        case backingOff(AuthState, until: Date, failure: Failure)
        case signInRequired(AuthState)
        case signedOut(AuthState)

        var name: String {
            switch self {
            case .saved: "saved"
            case .unsaved: "unsaved"
            case .backingOff: "backingOff"
            case .signInRequired: "signInRequired"
            case .signedOut: "signedOut"
            }
        }

        var state: AuthState {
            switch self {
            case .saved(let s), .unsaved(let s, _, _), .backingOff(let s, _, _), .signInRequired(let s),
                .signedOut(let s):
                s
            }
        }

        /// The copy the store holds, as far as the session knows: the state itself once saved, the
        /// copy an unsaved state was made from, none once signed out.
        var storedCopy: AuthState? {
            switch self {
            case .saved(let s), .backingOff(let s, _, _), .signInRequired(let s): s
            case .unsaved(_, let base, _): base
            case .signedOut: nil
            }
        }

        /// The ownership rule, for an unsaved state (this phase) and the copy now stored.
        ///
        /// - The copy it was made from is still stored: it is saved over it.
        /// - The copy is gone (a sign-out elsewhere) or another account's (a sign-in elsewhere):
        ///   the key is theirs. The session is signed out, and a refresh token that only this
        ///   session holds (a rotated one, or a new grant's) is revoked rather than dropped; one
        ///   the stored copy held before is left to whoever signed out.
        /// - The same account's copy: a new sign-in or grant made here is saved over it, and so is a
        ///   refresh when the stored copy was marked by another process that spent the refresh
        ///   token this one had rotated; otherwise the copy is taken, and the unsaved tokens, of the
        ///   same grant, are left to it (revoking one would end the whole grant at some servers).
        /// - A copy the provider ended: a refresh is saved over it still ended, unless another
        ///   process refreshed since, whose copy is taken.
        func reconciling(with stored: AuthState?) -> (Phase, StoredCopyAction) {
            guard case .unsaved(let state, let base, let newGrant) = self else { return (self, .unchanged) }
            guard stored != base else { return (self, .unchanged) }
            guard let stored, state.mayBeOwnCopy(stored) else {
                let failure = Failure(
                    stored == nil
                        ? BearerError.signInRequired(Failure.signedOutElsewhere)
                        : BearerError.userMismatch(Failure.otherAccount))
                let onlyHere = state.refreshToken != nil && state.refreshToken != base?.refreshToken
                return (
                    .signedOut(state.forgettingTokens()),
                    onlyHere ? .revokeOrphan(state, then: failure) : .fail(failure)
                )
            }
            // The provider ended the session (back-channel logout) while this refresh was unsaved:
            // its tokens, the newest of the grant, are saved marked as ended; a copy refreshed
            // since by another process is taken as it is. Only a new sign-in lifts the mark.
            if !newGrant, stored.isEndedAtProvider {
                guard stored.refreshToken == base?.refreshToken else { return (.signInRequired(stored), .adopted) }
                return (.unsaved(state.endedAtProvider(), over: stored, newGrant: false), .unchanged)
            }
            if newGrant || (stored.signInRequired && stored.refreshToken == base?.refreshToken) {
                return (.unsaved(state, over: stored, newGrant: newGrant), .unchanged)
            }
            return (stored.signInRequired ? .signInRequired(stored) : .saved(stored), .adopted)
        }
    }

    /// What a run's callers need: a fresh token other than those they saw rejected or refresh.
    struct Need: Sendable {
        var otherThan: Set<AccessToken> = []

        /// Whether `state`'s token serves callers with this need at `now`, without a refresh.
        func isServed(by state: AuthState, at now: Date, leeway: TimeInterval) -> Bool {
            guard let token = state.accessToken, !otherThan.contains(token) else { return false }
            return !state.needsRefresh(at: now, leeway: leeway)
        }
    }

    /// The run in progress: its task, what its callers need, and how far it has got.
    struct LockedRun: Sendable {
        let task: Run
        var need: Need
        var refreshUnderway = false
        var hasRefreshed = false
        /// Whether the run has delivered or failed; it still holds the lock until it ends.
        var hasDecided = false
    }

    /// The locked run that answers a caller: the store's lock taken, the stored copy reloaded, then
    /// ``AuthSession/StateMachine/nextStepHoldingLock(at:leeway:)`` until it delivers or fails.
    /// Every caller that joins it gets its result.
    @_spi(CommandLine) public typealias Run = Task<AuthState, any Error>

    /// What to do when a caller asks for a token, before taking any lock.
    @_spi(CommandLine) public enum TokenAction: Sendable, Equatable {
        /// The state's token serves this caller: use it.
        case deliver(AuthState)
        /// Fail at once.
        case fail(Failure)
        /// Start the one locked run (a task running the locked steps), report it with
        /// ``AuthSession/StateMachine/runStarted(_:)`` and await its result.
        case startRun
        /// A run is deciding and serves this caller too: await its result.
        case join(Run)
        /// The run in progress has decided and cannot serve this caller (it hands out the token the
        /// server rejected, or did not refresh when a refresh was asked for): await its end, then
        /// ask again.
        case waitForRun(Run)
    }

    /// What to do next while holding the store's lock.
    enum LockedAction: Sendable, Equatable {
        /// The state's token serves the run: return it (the run has decided).
        case deliver(AuthState)
        /// Fail the run (it has decided).
        case fail(Failure)
        /// Save this state over the stored copy it was made from (`over`), report
        /// ``AuthSession/StateMachine/saveSucceeded(_:)``, then ask again.
        case save(AuthState, over: AuthState?)
        /// Refresh this state, then report ``AuthSession/StateMachine/refreshSucceeded(_:)`` or
        /// ``AuthSession/StateMachine/refreshFailed(_:at:)``.
        case refresh(AuthState)
    }

    /// What to do after a refresh failed.
    enum RefreshFailedAction: Sendable, Equatable {
        /// Fail the run with this error.
        case fail(Failure)
        /// The session was marked as needing a new sign-in; ask for the next step (the mark's save).
        case nextStep
    }

    /// What the stored copy, read under the lock, changed.
    enum StoredCopyAction: Sendable, Equatable {
        /// Nothing changed.
        case unchanged
        /// The session took the stored copy: observers must hear of it.
        case adopted
        /// The session, signed out or needing a sign-in, took the copy of another account that
        /// signed in under its key since: observers must hear of it, and the call fails once with
        /// this failure, so that the caller learns of the new account from the session's state.
        case adoptedOtherAccount(Failure)
        /// Fail: the copy is gone (the session is now signed out) or belongs to another account.
        case fail(Failure)
        /// The stored copy is no longer the one the unsaved state was made from, and the ownership
        /// rule kept the stored one: revoke this state's grant (best effort; nobody holds it any
        /// more), tell observers, then fail with the failure when there is one.
        case revokeOrphan(AuthState, then: Failure?)
    }
}

extension AuthSession.StateMachine.Failure {
    static let copyGone = "The session was signed out (its saved copy is gone); sign in again."
    static let accountChanged =
        "Another account signed in under this session's key after it was signed out; the session now serves that "
        + "account, which its state names. Show that account, then call again."
    /// A refresh whose answer kept its refresh token but refused its access token.
    static let noUsableAccessToken = Self(
        BearerError.invalidResponse(
            "The token endpoint's answer to the refresh held no usable access token; the refresh token it sent "
                + "was saved. Try again; if this persists, the server is misconfigured."))
    static let signedOutElsewhere =
        "The session was signed out elsewhere while its newer tokens were unsaved; they were not kept. Sign in again."
    static let otherAccount =
        "Another account has signed in under this session's key; restore the session to use that account."

    /// The error for a session whose grant is gone, naming the server's error when it is known.
    static func signInRequired(_ error: OAuthError?) -> Self {
        guard let error else {
            return Self(BearerError.signInRequired("The session's grant is no longer valid; sign in again."))
        }
        var reason = "The session's grant is no longer valid (\(error.code)"
        if let description = error.errorDescription { reason += ": \(description)" }
        reason += "); the user must sign in again."
        return Self(BearerError.signInRequired(reason))
    }

    /// How long the server asked to wait before the next refresh, if it said.
    static func retryAfter(of error: any Error) -> TimeInterval? {
        if let error = error as? BearerError { return error.retryAfter }
        if let error = error as? OAuthError { return error.retryAfter }
        return nil
    }
}
