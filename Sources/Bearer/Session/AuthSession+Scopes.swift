public import Foundation

extension AuthSession {
    /// Whether `scope` has been granted (Google's `email`/`profile` aliases count as the same).
    ///
    /// - Parameter scope: A scope.
    /// - Returns: `true` when granted.
    public func hasGranted(_ scope: String) -> Bool {
        lifecycle.state.hasGranted(scope)
    }

    /// Builds the incremental authorization request for `scopes`: the union with the granted
    /// scopes, sorted, `include_granted_scopes=true`, and `login_hint` set to the user's email.
    ///
    /// - Parameters:
    ///   - scopes: The scopes to add.
    ///   - redirectURI: The redirect URI to send, when it differs from the client's.
    ///   - additionalParameters: Extra parameters.
    /// - Returns: The request, or `nil` when everything is already granted.
    /// - Throws: ``BearerError`` for a bad scope or configuration.
    public func addScopes(
        _ scopes: [String],
        redirectURI: URL? = nil,
        additionalParameters: [String: String] = [:]
    ) throws -> AuthorizationRequest? {
        do {
            return try lifecycle.state.addScopesRequest(
                scopes,
                redirectURI: redirectURI,
                additionalParameters: additionalParameters
            )
        } catch {
            throw configuration.rewriteError(error)
        }
    }

    /// Exchanges the code of an incremental authorization and merges the grant into this session,
    /// then saves it.
    ///
    /// - Parameters:
    ///   - response: The checked redirect.
    ///   - request: The request from ``addScopes(_:redirectURI:additionalParameters:)``.
    /// - Returns: The merged session.
    /// - Throws: ``BearerError/Kind/userMismatch`` when another account answered (the session is
    ///   unchanged); the exchange's and the store's errors.
    @discardableResult
    public func completeAddingScopes(
        _ response: AuthorizationResponse,
        for request: AuthorizationRequest
    ) async throws -> AuthState {
        try await funnel {
            let grant = try await AuthState.exchange(response, for: request, using: self.transport, clock: self.clock)
            return try await self.store.withExclusiveAccess(to: self.key) {
                try await self.mergeHoldingLock(grant)
            }
        }
    }

    private func mergeHoldingLock(_ grant: AuthState) async throws -> AuthState {
        try await reloadHoldingLock()
        let merged = try lifecycle.grantReceived(grant)
        try await save(merged)
        return merged
    }
}
