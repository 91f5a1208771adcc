#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// The standard ``Authorizer``: a signed-in session that stamps requests, refreshes its token once
/// however many tasks ask at the same time, and saves every new state before using it.
///
/// ```swift
/// let store = FileSessionStore(directory: sessionsFolder)
/// let session = AuthSession(state: state, store: store, key: "default", policy: .google)
/// let (data, response) = try await session.data(for: URLRequest(url: driveAbout))
/// ```
///
/// - One refresh at a time: concurrent callers share one token request and its result. The refresh
///   runs inside the store's exclusive lock, re-reading the stored session first, so sessions in
///   other processes sharing a ``FileSessionStore`` never refresh the same grant twice.
/// - Persist before use: a refreshed session (with a rotated refresh token) is saved before any
///   caller gets the new access token; if saving fails, callers get that error and the session
///   keeps the new tokens in memory.
/// - Failures classified: `invalid_grant` marks the session as needing a new sign-in (saved, and
///   later calls fail at once); network errors and 5xx leave the session unchanged, and a
///   `Retry-After` is honoured. A stale token is never stamped to hide a failed refresh.
public actor AuthSession: Authorizer {
    /// The key the session is saved under.
    public nonisolated let key: String
    /// Where tokens may go and when they are refreshed.
    public nonisolated let policy: AuthorizationPolicy

    /// The current session.
    public private(set) var state: AuthState

    let store: any SessionStore
    let transport: any HTTPTransport
    let clock: WallClock
    let hooks: AuthSessionHooks

    private var refreshTask: Task<AuthState, any Error>?
    /// Whether the current state still waits for a successful save.
    private(set) var hasUnsavedState = false
    private var transientFailure: (error: any Error, retryNotBefore: Date)?
    private var observers: [UUID: AsyncStream<AuthState>.Continuation] = [:]
    private var isSignedOut = false
    /// Whether this state is known to be in the store (restored from it, or saved by this session),
    /// so that finding the store empty means someone signed out.
    private var hasBeenStored: Bool

    /// Creates a session around a signed-in state. It is not saved until it changes; call
    /// ``replace(with:)`` to save a new sign-in.
    ///
    /// - Parameters:
    ///   - state: The session.
    ///   - store: Where it is saved.
    ///   - key: The key it is saved under.
    ///   - transport: Sends token requests and ``data(for:)`` requests.
    ///   - clock: Decides freshness.
    ///   - policy: Where tokens may go and when they are refreshed.
    ///   - hooks: Extra refresh parameters and error rewriting.
    public init(
        state: AuthState,
        store: any SessionStore,
        key: String,
        transport: any HTTPTransport = URLSessionTransport(),
        clock: WallClock = .system,
        policy: AuthorizationPolicy = AuthorizationPolicy(),
        hooks: AuthSessionHooks = AuthSessionHooks()
    ) {
        self.init(
            state: state,
            store: store,
            key: key,
            transport: transport,
            clock: clock,
            policy: policy,
            hooks: hooks,
            isStored: false
        )
    }

    private init(
        state: AuthState,
        store: any SessionStore,
        key: String,
        transport: any HTTPTransport,
        clock: WallClock,
        policy: AuthorizationPolicy,
        hooks: AuthSessionHooks,
        isStored: Bool
    ) {
        self.state = state
        self.store = store
        self.key = key
        self.transport = transport
        self.clock = clock
        self.policy = policy
        self.hooks = hooks
        self.hasBeenStored = isStored
    }

    /// Restores the session saved under `key`.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - store: The store.
    ///   - transport: Sends requests.
    ///   - clock: Decides freshness.
    ///   - policy: Where tokens may go and when they are refreshed.
    ///   - hooks: Extra refresh parameters and error rewriting.
    /// - Returns: The session, or `nil` when none is saved.
    /// - Throws: The store's error when the saved item cannot be read (it is left in place).
    public static func restore(
        key: String,
        from store: any SessionStore,
        transport: any HTTPTransport = URLSessionTransport(),
        clock: WallClock = .system,
        policy: AuthorizationPolicy = AuthorizationPolicy(),
        hooks: AuthSessionHooks = AuthSessionHooks()
    ) async throws -> AuthSession? {
        guard let state = try await store.load(key: key) else { return nil }
        return AuthSession(
            state: state,
            store: store,
            key: key,
            transport: transport,
            clock: clock,
            policy: policy,
            hooks: hooks,
            isStored: true
        )
    }

    // MARK: - Authorizer

    /// Returns `request` with `Authorization: Bearer`, refreshing first when the token is within
    /// the leeway of expiry.
    public func authorize(_ request: URLRequest) async throws -> URLRequest {
        try await authorizeReturningToken(request).request
    }

    /// Whether the session can authorize requests.
    public var canAuthorize: Bool {
        !isSignedOut && !state.needsReauthentication && (state.accessToken != nil || state.refreshToken != nil)
    }

    /// The signed-in user, from the ID token.
    public var user: AuthState.User? { state.user }

    /// A fresh access token, refreshing first when needed.
    ///
    /// - Returns: The token.
    /// - Throws: As ``authorize(_:)``.
    public func validAccessToken() async throws -> AccessToken {
        let current = try await freshState()
        guard let token = current.accessToken else {
            throw rewritten(BearerError(.invalidResponse, "The session has no access token after a refresh."))
        }
        return token
    }

    /// Refreshes now, whatever the token's expiry, unless another refresh is in flight, whose
    /// result is then shared.
    ///
    /// - Returns: The refreshed session.
    /// - Throws: As ``authorize(_:)``.
    @discardableResult
    public func refresh() async throws -> AuthState {
        try await freshState(replacing: state.accessToken ?? AccessToken(""))
    }

    func authorizeReturningToken(_ request: URLRequest) async throws -> (request: URLRequest, token: AccessToken) {
        do {
            try policy.checkDestination(request.url)
        } catch {
            throw rewritten(error)
        }
        let token = try await validAccessToken()
        var authorized = request
        authorized.setBearerToken(token)
        return (authorized, token)
    }

    // MARK: - Refresh

    /// The current session, refreshed first when its token is stale — or, with `staleToken`, when
    /// its token is still that one (a server rejected it).
    func freshState(replacing staleToken: AccessToken? = nil) async throws -> AuthState {
        if let refreshTask {
            do { return try await refreshTask.value } catch { throw rewritten(error) }
        }
        if isSignedOut || state.reauthenticationError != nil || hasUnsavedState {
            do {
                try await store.withExclusiveAccess(to: key) { try await self.reconcileHoldingLock() }
            } catch {
                throw rewritten(error)
            }
        }
        if isSignedOut {
            throw rewritten(BearerError(.needsReauthentication, "The user signed out; sign in again."))
        }
        if let error = state.reauthenticationError {
            throw rewritten(Self.reauthenticationError(error))
        }
        guard isStale(state, replacing: staleToken) else { return state }
        if let transientFailure, clock.now() < transientFailure.retryNotBefore {
            throw rewritten(transientFailure.error)
        }
        let task = Task { try await self.refreshUnderLock(replacing: staleToken) }
        refreshTask = task
        defer { refreshTask = nil }
        do { return try await task.value } catch { throw rewritten(error) }
    }

    private func isStale(_ candidate: AuthState, replacing staleToken: AccessToken?) -> Bool {
        if let staleToken { return candidate.accessToken == nil || candidate.accessToken == staleToken }
        return candidate.needsRefresh(at: clock.now(), leeway: policy.refreshLeeway)
    }

    private func refreshUnderLock(replacing staleToken: AccessToken?) async throws -> AuthState {
        try await store.withExclusiveAccess(to: key) {
            try await self.refreshHoldingLock(replacing: staleToken)
        }
    }

    /// Saves a state whose save failed before it is used, or, for a session that was signed out or
    /// lost its grant, takes a usable session another process saved under the same key.
    private func reconcileHoldingLock() async throws {
        if hasUnsavedState {
            try await commit(state)
            return
        }
        guard let stored = try await store.load(key: key), stored != state, !stored.needsReauthentication,
            stored.accessToken != nil || stored.refreshToken != nil
        else { return }
        state = stored
        isSignedOut = false
        hasBeenStored = true
        notifyObservers()
    }

    private func refreshHoldingLock(replacing staleToken: AccessToken?) async throws -> AuthState {
        if !hasUnsavedState { try await adoptStored() }
        if let error = state.reauthenticationError { throw Self.reauthenticationError(error) }
        guard isStale(state, replacing: staleToken) else {
            if hasUnsavedState { try await commit(state) }
            return state
        }
        do {
            let refreshed = try await state.refreshed(
                using: transport,
                additionalParameters: hooks.additionalRefreshParameters(state),
                clock: clock,
                allowedClockSkew: policy.allowedClockSkew
            )
            transientFailure = nil
            try await commit(refreshed)
            return refreshed
        } catch let error as OAuthError where error.requiresReauthentication {
            try await commit(state.markingNeedsReauthentication(error))
            throw Self.reauthenticationError(error)
        } catch {
            if let retryAfter = Self.retryAfter(of: error) {
                transientFailure = (error, clock.now().addingTimeInterval(retryAfter))
            }
            throw error
        }
    }

    /// Takes the stored session (another process refreshed it); must run under the store's lock.
    ///
    /// - Throws: ``BearerError/Kind/needsReauthentication`` when the stored copy is gone (someone
    ///   signed out), ``BearerError/Kind/userMismatch`` when another account now holds the key.
    func adoptStored() async throws {
        guard let stored = try await store.load(key: key) else {
            guard !hasBeenStored else {
                isSignedOut = true
                throw BearerError(
                    .needsReauthentication,
                    "The session was signed out (its saved copy is gone); sign in again."
                )
            }
            return
        }
        guard stored != state else { return }
        guard stored.mayBeSameUser(as: state) else {
            throw BearerError(
                .userMismatch,
                "Another account has signed in under this session's key; restore the session to use that account."
            )
        }
        state = stored
        hasBeenStored = true
        notifyObservers()
    }

    /// Makes `next` the current session and saves it; observers hear of it once it is saved. When
    /// the save fails the new state stays in memory and is saved again before it is used.
    func commit(_ next: AuthState) async throws {
        state = next
        hasUnsavedState = true
        try await store.save(next, key: key)
        hasUnsavedState = false
        hasBeenStored = true
        notifyObservers()
    }

    private static func reauthenticationError(_ error: OAuthError) -> BearerError {
        var reason = "The session's grant is no longer valid (\(error.code)"
        if let description = error.errorDescription { reason += ": \(description)" }
        reason += "); the user must sign in again."
        return BearerError(.needsReauthentication, reason)
    }

    private static func retryAfter(of error: any Error) -> TimeInterval? {
        if let error = error as? BearerError { return error.retryAfter }
        if let error = error as? OAuthError { return error.retryAfter }
        return nil
    }

    func rewritten(_ error: any Error) -> any Error {
        hooks.rewriteError(error)
    }

    // MARK: - Changes

    /// A stream of the session's states: each refresh, re-authentication mark, scope upgrade,
    /// sign-in and sign-out. It starts with the next change; only the newest state is buffered.
    ///
    /// - Returns: The stream; cancel the iterating task to stop it.
    public func stateChanges() -> AsyncStream<AuthState> {
        let (stream, continuation) = AsyncStream.makeStream(of: AuthState.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        observers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        return stream
    }

    private func removeObserver(_ id: UUID) {
        observers[id] = nil
    }

    private func notifyObservers() {
        for continuation in observers.values { continuation.yield(state) }
    }

    // MARK: - Sign-in and sign-out

    /// Replaces the session with a new sign-in and saves it, clearing any re-authentication mark.
    ///
    /// - Parameter newState: The new session.
    /// - Throws: The store's error when it cannot be saved (the new session is kept in memory).
    public func replace(with newState: AuthState) async throws {
        try await store.withExclusiveAccess(to: key) {
            try await self.commitReplacement(newState)
        }
    }

    private func commitReplacement(_ newState: AuthState) async throws {
        isSignedOut = false
        transientFailure = nil
        try await commit(newState)
    }

    /// Revokes the grant (RFC 7009) and removes the stored session. The stored session is removed
    /// even when revocation fails; the failure is returned. Both happen under the store's lock, with
    /// the latest stored tokens, so a refresh token another process rotated is the one revoked.
    ///
    /// - Returns: Whether the server revoked the grant.
    /// - Throws: The store's error when the session cannot be removed.
    @discardableResult
    public func signOut() async throws -> RevocationOutcome {
        try await store.withExclusiveAccess(to: key) {
            try await self.signOutHoldingLock()
        }
    }

    private func signOutHoldingLock() async throws -> RevocationOutcome {
        if !hasUnsavedState, let stored = try? await store.load(key: key), stored.mayBeSameUser(as: state) {
            state = stored
        }
        let outcome: RevocationOutcome
        if let request = RevocationRequest(revoking: state), state.server.revocationEndpoint != nil {
            do {
                try await request.send(using: transport)
                outcome = .revoked
            } catch {
                outcome = .failed(error)
            }
        } else {
            outcome = .notRevoked
        }
        try await store.remove(key: key)
        isSignedOut = true
        hasUnsavedState = false
        state.accessToken = nil
        state.refreshToken = nil
        state.idToken = nil
        notifyObservers()
        return outcome
    }
}

/// What happened to the grant at the server when signing out.
public enum RevocationOutcome: Sendable {
    /// The server revoked the grant.
    case revoked
    /// The server has no revocation endpoint or the session held no token; only the local session was removed.
    case notRevoked
    /// Revocation failed (the local session was still removed); the grant may remain valid at the server.
    case failed(any Error)
}
