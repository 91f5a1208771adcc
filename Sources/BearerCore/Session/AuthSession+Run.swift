extension AuthSession {
    /// What a caller needs from the session.
    enum Need: Sendable {
        /// A token that is fresh now.
        case freshToken
        /// A token refreshed after `seen`, the one the caller saw, whatever its expiry.
        case refresh(after: AccessToken?)
        /// A token other than this one, which a server rejected.
        case otherThan(AccessToken)
    }

    /// A fresh access token that serves `need`.
    func freshAccessToken(_ need: Need = .freshToken) async throws -> AccessToken {
        guard let token = try await freshState(need).accessToken else {
            throw BearerError.invalidResponse("The session has no access token after a refresh.")
        }
        return token
    }

    /// The current session, once it serves `need`: the state machine answers at once, or has the
    /// caller start, join or wait for the one locked run.
    func freshState(_ need: Need = .freshToken) async throws -> AuthState {
        while true {
            let now = clock.now()
            let leeway = configuration.refreshLeeway
            let action =
                switch need {
                case .freshToken: machine.tokenRequested(at: now, leeway: leeway)
                case .refresh(let seen): machine.refreshRequested(after: seen, at: now, leeway: leeway)
                case .otherThan(let token): machine.tokenRejected(token, at: now, leeway: leeway)
                }
            switch action {
            case .deliver(let state):
                return state
            case .fail(let failure):
                throw failure.error
            case .join(let run):
                return try await run.value
            case .waitForRun(let run):
                _ = try? await run.value
            case .startRun:
                let run = Task { try await self.performRun() }
                machine.runStarted(run)
                return try await run.value
            }
        }
    }

    /// The body of a run: the locked steps under the store's lock. The run ends in the machine
    /// before its task returns, so no caller resuming from it finds it still in progress.
    private func performRun() async throws -> AuthState {
        do {
            let state = try await withStoreLock { access in try await self.runHoldingLock(access) }
            machine.runEnded()
            return state
        } catch {
            machine.runEnded()
            throw error
        }
    }

    private func runHoldingLock(_ access: any ExclusiveSessionAccess) async throws -> AuthState {
        // Entered before the refresh is sent and left when the run ends, which is right after the
        // refresh's outcome is saved (the next step delivers or fails), or when it failed.
        var section: (any RefreshCriticalSection)?
        defer { section?.leave() }
        try await reloadHoldingLock(access)
        while true {
            switch machine.nextStepHoldingLock(at: clock.now(), leeway: configuration.refreshLeeway) {
            case .deliver(let state):
                return state
            case .fail(let failure):
                throw failure.error
            case .save(let state, let base):
                try await save(state, over: base, through: access)
            case .refresh(let state):
                let refreshed: AuthState
                do {
                    // Nothing is sent for a session whose save has no room, which would lose a
                    // rotated refresh token (nor for one that cannot be encoded: see refreshRequest).
                    try await access.prepareToSave()
                    if section == nil {
                        section = configuration.refreshCriticalSection
                        section?.enter()
                    }
                    if let derivation = state.derivation {
                        refreshed = try await derivedAgain(state, derivation: derivation, through: access)
                    } else {
                        refreshed = try await serverClient.bounded(by: access).refresh(
                            state, additionalParameters: configuration.additionalRefreshParameters(state))
                    }
                } catch {
                    switch machine.refreshFailed(error, at: clock.now()) {
                    case .fail(let failure): throw failure.error
                    case .nextStep: continue
                    }
                }
                machine.refreshSucceeded(refreshed)
            }
        }
    }

    /// Runs `body` under the store's lock of the session's key, with the access to its copy.
    func withStoreLock<Result: Sendable>(
        _ body: @Sendable (any ExclusiveSessionAccess) async throws -> Result
    ) async throws -> Result {
        try await store.withExclusiveAccess(to: key) { access in try await body(access) }
    }

    /// Catches up with the stored copy; must run under the store's lock.
    func reloadHoldingLock(_ access: some ExclusiveSessionAccess) async throws {
        try await catchUp(with: try await access.load())
    }

    /// Catches up with `stored`, the copy just read under the store's lock.
    func catchUp(with stored: AuthState?) async throws {
        switch machine.storedCopyLoaded(stored) {
        case .unchanged: break
        case .adopted: notifyObservers()
        case .adoptedOtherAccount(let failure):
            notifyObservers()
            throw failure.error
        case .fail(let failure): throw failure.error
        case .revokeOrphan(let orphan, let failure):
            _ = await serverClient.revokeEveryToken(of: orphan)
            notifyObservers()
            if let failure { throw failure.error }
        }
    }

    /// Saves `state`, the unsaved state, over `base`, the stored copy it was made from, under the
    /// store's lock; observers hear of it once it is saved. When the save fails the state stays
    /// in memory, unsaved, and is saved before use.
    func save(_ state: AuthState, over base: AuthState?, through access: some ExclusiveSessionAccess) async throws {
        try await access.save(state, replacing: base)
        machine.saveSucceeded(state)
        notifyObservers()
    }
}
