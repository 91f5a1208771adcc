#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Step-up authorization: a `403 insufficient_scope` answered by asking the user for the scopes the
// resource named, keeping those already granted (RFC 6750 §3.1, the MCP authorization profile).
extension AuthSession {
    /// Sends `request` as ``data(for:)->TransportResponse`` does; when the resource answers
    /// `403` with `error="insufficient_scope"`, asks the user once, with `agent`, for the scopes
    /// its challenge names in addition to those granted, then sends the request once more.
    ///
    /// ```swift
    /// let answer = try await session.data(for: request, steppingUpWith: agent)
    /// ```
    ///
    /// A challenge that names no `scope` (the MCP Python SDK's names the missing scope only in
    /// prose) asks for every scope the authorization server lists (`scopes_supported`), but
    /// `openid` and `offline_access` only when already granted. A resource session's new grant is for the same
    /// resource, and replaces the session's tokens once merged and saved.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - agent: Shows the page when more scopes are needed.
    /// - Returns: The answer to the last attempt.
    /// - Throws: The ``OAuthError`` `insufficient_scope` when every scope asked for is already
    ///   granted or the second attempt is refused for scope again; `CancellationError` when the
    ///   user closed the page (the session is unchanged); else as
    ///   ``data(for:)->TransportResponse`` and ``addScopes(_:using:additionalParameters:tokenParameters:)``.
    public func data(
        for request: TransportRequest,
        steppingUpWith agent: some AuthorizationAgent
    ) async throws -> TransportResponse {
        do {
            return try await data(for: request)
        } catch let refusal as OAuthError where refusal.code == .insufficientScope {
            let scopes = stepUpScopes(for: refusal.challenge)
            guard try await addScopes(scopes, using: agent) == .granted else { throw refusal }
            return try await data(for: request)
        }
    }

    /// The scopes a step-up asks for: the challenge's, else every scope the server lists.
    func stepUpScopes(for challenge: BearerChallenge?) -> [String] {
        let named = challenge?.scopes ?? []
        guard named.isEmpty else { return named }
        let listed = machine.state.server.scopesSupported ?? []
        // `openid` would ask for an ID token the merge then needs as proof of the same user, and
        // `offline_access` a refresh token the grant may not have had: neither is a resource's scope.
        return listed.filter { !["openid", "offline_access"].contains($0) || machine.state.hasGranted($0) }
    }
}
