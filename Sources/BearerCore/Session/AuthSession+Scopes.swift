#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension AuthSession {
    /// Whether `scope` has been granted (Google's `email`/`profile` aliases count as the same).
    ///
    /// - Parameter scope: A scope.
    /// - Returns: `true` when granted.
    public func hasGranted(_ scope: String) -> Bool {
        machine.state.hasGranted(scope)
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
    func authorizationRequest(
        adding scopes: [String],
        redirectURI: URL? = nil,
        additionalParameters: [String: String] = [:]
    ) throws -> AuthorizationRequest? {
        do {
            let state = machine.state
            if state.resource != nil, let registered = state.client.redirectURI, let redirectURI,
                redirectURI != registered
            {
                // A client found through a resource was registered with one redirect URI, which
                // its server compares exactly (port and all): another would be refused there.
                throw BearerError.invalidConfiguration(
                    "The session's client was registered with the redirect URI \(registered.forMessages), not "
                        + "\(redirectURI.forMessages); show the request with an agent that redirects there (for "
                        + "a loopback agent, its port: \(registered.port.map(String.init) ?? "none")).")
            }
            return try machine.state.addScopesRequest(
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
    ///   - request: The request from ``authorizationRequest(adding:redirectURI:additionalParameters:)``.
    ///   - tokenParameters: Extra parameters of the code exchange.
    /// - Returns: The merged session.
    /// - Throws: ``BearerError/Kind/userMismatch`` when another account answered, or the grant
    ///   does not prove it is the same user (the session is unchanged, and the refused grant is
    ///   revoked, best effort); the exchange's and the store's errors.
    @discardableResult
    func completeAddingScopes(
        _ response: AuthorizationResponse,
        for request: AuthorizationRequest,
        tokenParameters: [String: String] = [:]
    ) async throws -> AuthState {
        var tokenParameters = tokenParameters
        if let resource = machine.state.resource { tokenParameters["resource"] = resource.description }
        return try await funnel {
            // The new grant is bound to the session's key, so the merged session keeps one key.
            let grant = try await self.serverClient.exchange(
                response, for: request, additionalParameters: tokenParameters,
                provingWith: try self.serverClient.proofKey(of: self.machine.state))
            do {
                return try await self.withStoreLock { access in try await self.mergeHoldingLock(grant, access) }
            } catch let error as BearerError where error.kind == .userMismatch {
                // The grant is refused, so it is not kept: revoke it rather than leave it valid.
                _ = await self.serverClient.revokeEveryToken(of: grant)
                throw error
            }
        }
    }

    /// Asks for more scopes with one call (incremental authorization): shows the request with
    /// `agent`, checks that the same user answered, exchanges the code and merges the grant into
    /// this session, saved before returning.
    ///
    /// ```swift
    /// try await session.addScopes([driveScope], using: agent)  // CancellationError if the user closed the page
    /// try await listFiles(with: session)
    /// ```
    ///
    /// - Parameters:
    ///   - scopes: The scopes to add.
    ///   - agent: Shows the page.
    ///   - additionalParameters: Extra authorization parameters.
    ///   - tokenParameters: Extra parameters of the code exchange, such as RFC 8707 `resource`.
    /// - Returns: ``ScopeUpgradeOutcome/alreadyGranted`` at once when every scope is granted
    ///   (nothing is shown); ``ScopeUpgradeOutcome/granted`` when the user granted them.
    /// - Throws: `CancellationError` when the user closed the page or the task was cancelled (the
    ///   session is unchanged); ``BearerError/Kind/userMismatch`` when another account answered (the
    ///   session is unchanged); ``OAuthError`` when the server refused; the exchange's, the agent's
    ///   and the store's errors.
    @discardableResult
    public func addScopes(
        _ scopes: [String],
        using agent: some AuthorizationAgent,
        additionalParameters: [String: String] = [:],
        tokenParameters: [String: String] = [:]
    ) async throws -> ScopeUpgradeOutcome {
        guard
            let unprepared = try authorizationRequest(
                adding: scopes, redirectURI: agent.redirectURI, additionalParameters: additionalParameters)
        else { return .alreadyGranted }
        let request: AuthorizationRequest
        let response: AuthorizationResponse
        do {
            // Signed and pushed as a first sign-in is (RFC 9101, RFC 9126), and pushed again as it is.
            (request, response) = try await serverClient.presenting(
                unprepared, with: agent, signing: configuration.requestObjects,
                pushing: configuration.pushedAuthorization)
        } catch {
            throw configuration.rewriteError(error)
        }
        try await completeAddingScopes(response, for: request, tokenParameters: tokenParameters)
        return .granted
    }

    private func mergeHoldingLock(_ grant: AuthState, _ access: some ExclusiveSessionAccess) async throws -> AuthState {
        try await reloadHoldingLock(access)
        let merged = try machine.grantReceived(grant)
        try await save(merged, over: machine.storedCopy, through: access)
        return merged
    }
}

/// How a request for more scopes ended.
public enum ScopeUpgradeOutcome: Sendable, Hashable {
    /// Every scope was already granted; nothing was shown.
    case alreadyGranted
    /// The user granted the scopes; the session is saved with them.
    case granted
}
