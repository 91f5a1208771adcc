#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension AuthState {
    /// The scopes of `scopes` that are not granted yet (Google's aliases count as granted).
    ///
    /// - Parameter scopes: Scopes the app needs.
    /// - Returns: The missing ones, in order, without duplicates.
    public func missingScopes(_ scopes: [String]) -> [String] {
        Scopes.deduplicated(scopes).filter { !hasGranted($0) }
    }

    /// Builds the request for incremental authorization: the union of granted and new scopes,
    /// sorted, with `include_granted_scopes=true` and `login_hint` set to the user's email.
    ///
    /// - Parameters:
    ///   - scopes: The scopes to add.
    ///   - redirectURI: The redirect URI to send, when it differs from the client's.
    ///   - additionalParameters: Extra parameters (e.g. `prompt`).
    /// - Returns: The request to open, or `nil` when every scope is already granted.
    /// - Throws: ``BearerError`` as ``AuthorizationRequest/init(server:client:scopes:redirectURI:additionalParameters:)``.
    func addScopesRequest(
        _ scopes: [String],
        redirectURI: URL? = nil,
        additionalParameters: [String: String] = [:]
    ) throws -> AuthorizationRequest? {
        let missing = missingScopes(scopes)
        guard !missing.isEmpty else { return nil }
        var parameters = additionalParameters
        parameters["include_granted_scopes"] = "true"
        if let email = user?.email { parameters["login_hint"] = email }
        if let resource { parameters["resource"] = resource.description }
        return try AuthorizationRequest(
            server: server,
            client: client,
            scopes: Array(Set(grantedScopes + missing)).sorted(),
            redirectURI: redirectURI,
            additionalParameters: parameters
        )
    }

    /// Merges the session created by an incremental authorization into this one.
    ///
    /// - Parameter grant: The session from exchanging the incremental request's code.
    /// - Returns: The merged session: the new tokens and scopes, the old refresh token when the
    ///   new grant has none.
    /// The grant must prove it is the same user (see ``mayBeSameUser(as:)``): when either session
    /// has a subject, the subjects must match, and a grant whose request asked for `openid` but
    /// came without an ID token is refused, as that missing ID token is the proof.
    ///
    /// - Throws: ``BearerError/Kind/userMismatch`` when the grant belongs to another user or does
    ///   not prove it is the same; this session is then unchanged.
    func merging(additionalGrant grant: AuthState) throws -> AuthState {
        let unproven = grant.idToken == nil && grant.requestedScopes.contains("openid")
        if unproven || !mayBeSameUser(as: grant) {
            throw BearerError.userMismatch(
                "The new grant belongs to another account than the signed-in one; the session was not changed. "
                    + "Ask the user to choose the same account."
            )
        }
        var merged = grant
        // The grant was asked for this session's resource, which it keeps (RFC 8707).
        merged.resource = resource
        if merged.refreshToken == nil {
            // The old refresh token stays, and with it the key it is bound to.
            merged.refreshToken = refreshToken
            if merged.dpopKey == nil { merged.dpopKey = dpopKey }
        }
        if merged.user == nil { merged.user = user }
        if merged.idToken == nil { merged.idToken = idToken }
        if merged.providerSessionID == nil { merged.providerSessionID = providerSessionID }
        merged.requestedScopes = Scopes.deduplicated(requestedScopes + grant.requestedScopes)
        merged.signInRequiredError = nil
        merged.metadata = metadata.merging(grant.metadata) { _, new in new }
        return merged
    }
}

extension AuthState {
    /// Whether `scope` has been granted; Google's aliases count as the same scope (`email` is
    /// `https://www.googleapis.com/auth/userinfo.email`, `profile` likewise).
    ///
    /// - Parameter scope: A scope.
    /// - Returns: `true` when the server granted it.
    public func hasGranted(_ scope: String) -> Bool {
        Scopes.contains(grantedScopes, scope)
    }
}
