#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The OpenID Connect UserInfo endpoint (OpenID Connect Core §5.3).
extension AuthorizationServerClient {
    /// Reads the user that `state`'s access token was issued for from its server's UserInfo
    /// endpoint. Fields the answer leaves out keep the values `state` already knows.
    ///
    /// The answer's `sub` must be that of the session's ID token when it has one (OpenID Connect
    /// Core §5.3.2: the answer cannot be trusted otherwise, as a token substitution would show).
    ///
    /// ```swift
    /// let user = try await AuthorizationServerClient(transport: transport).userInfo(for: await session.state)
    /// ```
    ///
    /// - Parameter state: The session; its access token must be fresh (``AuthSession/userInfo()``
    ///   refreshes it first).
    /// - Returns: The user.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when the server has no UserInfo endpoint,
    ///   ``BearerError/Kind/signInRequired`` when the session holds no access token,
    ///   ``BearerError/Kind/userMismatch`` when `sub` differs, ``BearerError/Kind/invalidResponse``
    ///   when the answer has no `sub`, ``BearerError/Kind/resourceMismatch`` for a session whose
    ///   tokens are for a protected resource (nothing is sent); the endpoint's errors.
    public func userInfo(for state: AuthState) async throws -> AuthState.User {
        let server = state.server
        guard let endpoint = server.userinfoEndpoint else {
            throw BearerError.invalidConfiguration(
                "\(server.issuer.absoluteString) has no UserInfo endpoint (userinfo_endpoint in its metadata)."
            )
        }
        guard let accessToken = state.accessToken else {
            throw BearerError.signInRequired("The session holds no access token to read the UserInfo endpoint with.")
        }
        try server.checkSecure(endpoint)
        // A resource's token goes to that resource alone, not to its server's UserInfo.
        try AuthSession.checkResource(of: state, covers: endpoint)
        var request = TransportRequest(url: endpoint, headerFields: ["Accept": "application/json"])
        let response: TransportResponse
        if state.accessTokenType == .dpop, let proofKey = try proofKey(of: state) {
            // A DPoP token goes with a proof, and again with the endpoint's new nonce when it asks.
            request.headerFields["Authorization"] = "DPoP " + accessToken.value
            response = try await prover(for: proofKey).send(request, presenting: accessToken) { try await send($0) }
        } else {
            request.setBearerToken(accessToken)
            response = try await send(request)
        }
        let claims = try Self.jsonObject(from: response, endpointName: "UserInfo endpoint", now: clock.now())
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else {
            throw BearerError.invalidResponse("The UserInfo answer has no sub (OpenID Connect Core §5.3.2).")
        }
        let known = state.user
        if let knownSubject = known?.subject, !knownSubject.isEmpty, knownSubject != subject {
            throw BearerError.userMismatch("The UserInfo answer is about another user than the ID token.")
        }
        return AuthState.User(
            subject: subject,
            email: claims["email"]?.stringValue ?? known?.email,
            emailVerified: claims["email_verified"]?.boolValue ?? known?.emailVerified,
            name: claims["name"]?.stringValue ?? known?.name,
            givenName: claims["given_name"]?.stringValue ?? known?.givenName,
            familyName: claims["family_name"]?.stringValue ?? known?.familyName,
            picture: claims["picture"]?.stringValue.flatMap(IDTokenClaims.webAddress) ?? known?.picture,
            hostedDomain: claims["hd"]?.stringValue ?? known?.hostedDomain
        )
    }
}
