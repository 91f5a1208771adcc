extension AuthSession {
    /// Reads the signed-in user from the server's OpenID Connect UserInfo endpoint with a fresh
    /// access token, checking that the answer's `sub` is the ID token's (OpenID Connect Core §5.3.2).
    ///
    /// ```swift
    /// let user = try await session.userInfo()
    /// greeting = "Hello, \(user.givenName ?? user.name ?? "there")"
    /// ```
    ///
    /// The session's ``user`` is not changed: it is what the ID token said.
    ///
    /// - Returns: The user, with the fields the answer left out taken from ``user``.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when the server has no UserInfo endpoint;
    ///   ``BearerError/Kind/userMismatch`` when the answer is about another user; the refresh's and
    ///   the endpoint's errors.
    public func userInfo() async throws -> AuthState.User {
        try await funnel {
            let state = try await self.freshState()
            return try await self.serverClient.userInfo(for: state)
        }
    }
}
