public import Foundation

extension AuthSession {
    /// Whether `scope` has been granted (Google's `email`/`profile` aliases count as the same).
    ///
    /// - Parameter scope: A scope.
    /// - Returns: `true` when granted.
    public func hasGranted(_ scope: String) -> Bool {
        state.hasGranted(scope)
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
        try state.addScopesRequest(scopes, redirectURI: redirectURI, additionalParameters: additionalParameters)
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
        do {
            let grant = try await AuthState.exchange(
                response,
                for: request,
                using: transport,
                clock: clock,
                allowedClockSkew: policy.allowedClockSkew
            )
            return try await store.withExclusiveAccess(to: key) {
                try await self.commitMerged(grant)
            }
        } catch {
            throw rewritten(error)
        }
    }

    private func commitMerged(_ grant: AuthState) async throws -> AuthState {
        if !hasUnsavedState { try await adoptStored() }
        let merged = try state.merging(additionalGrant: grant)
        try await commit(merged)
        return merged
    }
}
