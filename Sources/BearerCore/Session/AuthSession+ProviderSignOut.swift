#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension AuthSession {
    /// Disconnects as ``disconnect()`` does, then signs the user out at the provider too (OpenID
    /// Connect RP-Initiated Logout 1.0), so that the next sign-in asks who the user is instead of
    /// passing straight through as the same account.
    ///
    /// First the grant is revoked and the stored session removed: a closed page or a failed
    /// provider step never leaves tokens behind. Then `agent` shows the
    /// provider's `end_session_endpoint` with `id_token_hint` (the session's ID token, when it still
    /// holds one), `client_id`, `post_logout_redirect_uri` and a fresh `state`, and the redirect
    /// back must carry that `state`.
    ///
    /// ```swift
    /// let outcome = try await session.disconnect(
    ///     endingProviderSessionWith: ASWebAuthenticationSessionAgent(anchor: window),
    ///     postLogoutRedirectURI: URL(string: "com.example.app:/signed-out"))
    /// if case .notOffered = outcome.providerSession {
    ///     showHint("You are still signed in at your provider.")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - agent: Shows the provider's page: the agents of the one-call sign-in
    ///     (`ASWebAuthenticationSessionAgent`, `WebAuthenticationSessionAgent`, ``DefaultBrowserAgent``,
    ///     ``LoopbackAgent``) or the app's own.
    ///   - postLogoutRedirectURI: Where the provider sends the browser back, registered with it as
    ///     one of the client's `post_logout_redirect_uris`; `nil` uses the agent's redirect URI (a
    ///     loopback agent's), else the client's ``Client/redirectURI``.
    /// - Returns: The revocation's outcome, and ``ProviderSessionEnding/ended``,
    ///   ``ProviderSessionEnding/notOffered`` (the provider has no end-session endpoint) or
    ///   ``ProviderSessionEnding/notConfirmed(_:)`` (the page was closed or the provider's answer
    ///   did not confirm it).
    /// - Throws: The store's error when the stored session cannot be read (nothing was revoked,
    ///   removed or shown) or removed (the grant was revoked, the stored copy is still there, and
    ///   nothing was shown), as ``disconnect()`` throws it.
    public func disconnect(
        endingProviderSessionWith agent: some AuthorizationAgent,
        postLogoutRedirectURI: URL? = nil
    ) async throws -> ProviderSignOut {
        let signedIn = machine.state
        let revocation = try await disconnect()
        guard let endpoint = signedIn.server.endSessionEndpoint else {
            return ProviderSignOut(revocation: revocation, providerSession: .notOffered)
        }
        let request: ProviderLogoutRequest
        do {
            guard let redirectURI = postLogoutRedirectURI ?? agent.redirectURI ?? signedIn.client.redirectURI else {
                throw BearerError.invalidConfiguration(
                    "Signing out at the provider needs a post-logout redirect URI registered with it; pass "
                        + "postLogoutRedirectURI, or give the client a redirect URI.")
            }
            request = try ProviderLogoutRequest(
                endpoint: endpoint, server: signedIn.server, client: signedIn.client,
                idToken: signedIn.idToken, redirectURI: redirectURI)
        } catch {
            return ProviderSignOut(revocation: revocation, providerSession: .notConfirmed(error))
        }
        let ending: ProviderSessionEnding
        do {
            ending = request.ending(from: try await agent.present(request.presented))
        } catch {
            ending = .notConfirmed(error)
        }
        return ProviderSignOut(revocation: revocation, providerSession: ending)
    }
}
