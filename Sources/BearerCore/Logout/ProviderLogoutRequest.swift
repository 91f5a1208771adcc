#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A request that ends the user's session at the provider (OpenID Connect RP-Initiated Logout
/// 1.0 §2), shown by the same agents as a sign-in: its page is the provider's
/// `end_session_endpoint` with `id_token_hint`, `client_id`, `post_logout_redirect_uri` and
/// `state`, and the redirect back must carry that `state`.
struct ProviderLogoutRequest: Sendable {
    /// What the agent is shown: an ``AuthorizationRequest`` whose ``AuthorizationRequest/url`` is
    /// the logout page.
    let presented: AuthorizationRequest

    /// The parameters Bearer sets on the logout page.
    static let parameterNames: Set<String> = ["id_token_hint", "client_id", "post_logout_redirect_uri", "state"]

    /// Builds the request.
    ///
    /// - Parameters:
    ///   - endpoint: The provider's `end_session_endpoint`.
    ///   - server: The provider.
    ///   - client: The client.
    ///   - idToken: The session's ID token, sent as `id_token_hint`, if it had one.
    ///   - redirectURI: Where the provider sends the browser back, registered as one of the
    ///     client's `post_logout_redirect_uris`.
    /// - Throws: ``BearerError/Kind/insecureEndpoint`` when the endpoint is not https.
    init(endpoint: URL, server: AuthorizationServer, client: Client, idToken: IDToken?, redirectURI: URL) throws {
        try server.checkSecure(endpoint)
        var request = try AuthorizationRequest(server: server, client: client, scopes: [], redirectURI: redirectURI)
        var parameters: [(name: String, value: String)] = []
        if let idToken { parameters.append(("id_token_hint", idToken.value)) }
        parameters += [
            ("client_id", client.id), ("post_logout_redirect_uri", redirectURI.absoluteString),
            ("state", request.state),
        ]
        guard let page = FormEncoding.url(endpoint, adding: parameters, replacing: Self.parameterNames) else {
            throw BearerError.invalidConfiguration(
                "The end-session endpoint \(endpoint.absoluteString) cannot carry the logout parameters.")
        }
        request.endSessionPage = page
        presented = request
    }

    /// What the redirect back says: ``ProviderSessionEnding/notConfirmed(_:)`` with the provider's
    /// error when it carries one, ``ProviderSessionEnding/ended`` when it carries exactly this
    /// request's `state`, else ``ProviderSessionEnding/notConfirmed(_:)`` with a
    /// ``BearerError/Kind/invalidRedirect``.
    func ending(from redirect: URL) -> ProviderSessionEnding {
        let pairs = FormEncoding.decodePairs(
            URLComponents(url: redirect, resolvingAgainstBaseURL: false)?
                .percentEncodedQuery ?? "")
        if let code = pairs.first(where: { $0.name == "error" })?.value {
            let description = pairs.first { $0.name == "error_description" }?.value
            return .notConfirmed(OAuthError(code: OAuthError.Code(rawValue: code), errorDescription: description))
        }
        let states = pairs.filter { $0.name == "state" }.map(\.value)
        if states.count == 1, let state = states.first, ConstantTime.equals(state, presented.state) {
            return .ended
        }
        return .notConfirmed(
            BearerError.invalidRedirect(
                "The provider sent the browser back without this logout's state (RP-Initiated Logout 1.0 §3); "
                    + "the user may still be signed in there."))
    }
}

/// What became of the user's session at the provider when signing out there
/// (``AuthSession/disconnect(endingProviderSessionWith:postLogoutRedirectURI:)``). The local session is gone
/// in every case.
public enum ProviderSessionEnding: Sendable {
    /// The provider ended its session and sent the browser back with the request's `state`.
    case ended
    /// The provider has no `end_session_endpoint`: only the local session was removed, and the
    /// user is still signed in at the provider (the next sign-in may pass straight through).
    case notOffered
    /// The logout page was shown but its end was not confirmed: the user closed it
    /// (`CancellationError`), the provider answered an error (``OAuthError``), or the redirect
    /// back did not carry the request's `state` (``BearerError/Kind/invalidRedirect``). The user
    /// may still be signed in at the provider.
    case notConfirmed(any Error)
}

/// What signing out at the provider did (``AuthSession/disconnect(endingProviderSessionWith:postLogoutRedirectURI:)``):
/// the grant's revocation, then the provider's session.
public struct ProviderSignOut: Sendable {
    /// Whether the server revoked the grant; the local session was removed either way.
    public let revocation: RevocationOutcome
    /// Whether the provider ended its session.
    public let providerSession: ProviderSessionEnding
}
