#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension AuthState {
    /// Fills in ``user`` from the OpenID Connect UserInfo endpoint (OpenID Connect Core §5.3), for
    /// grants that bring no ID token (the device flow at many servers).
    ///
    /// The answer's `sub` must match the ID token's when there is one (§5.3.2).
    ///
    /// - Parameters:
    ///   - transport: Sends the request.
    ///   - clock: Gives the time of receipt.
    /// - Returns: The session with its user; unchanged when the server has no UserInfo endpoint or
    ///   the session no access token.
    /// - Throws: ``BearerError/Kind/userMismatch`` when `sub` differs; the endpoint's errors.
    public func fetchingUserInfo(
        using transport: some HTTPTransport,
        clock: WallClock = .system
    ) async throws -> AuthState {
        guard let endpoint = server.userinfoEndpoint, let accessToken else { return self }
        try server.checkSecure(endpoint)
        var request = TransportRequest(url: endpoint, headerFields: ["Accept": "application/json"])
        request.setBearerToken(accessToken)
        let response = try await transport.sendReportingNetworkErrors(
            request, maximumBodySize: OAuthEndpoint.maximumBodySize)
        let claims = try OAuthEndpoint.jsonObject(
            from: response,
            endpointName: "UserInfo endpoint",
            now: clock.now()
        )
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else {
            throw BearerError.invalidResponse("The UserInfo answer has no sub (OpenID Connect Core §5.3.2).")
        }
        if let known = user?.subject, !known.isEmpty, known != subject {
            throw BearerError.userMismatch("The UserInfo answer is about another user than the ID token.")
        }
        var next = self
        next.user = User(
            subject: subject,
            email: claims["email"]?.stringValue ?? user?.email,
            emailVerified: claims["email_verified"]?.boolValue ?? user?.emailVerified,
            name: claims["name"]?.stringValue ?? user?.name
        )
        return next
    }
}
