extension AuthSession {
    /// An ID token that is valid now, to prove the user's sign-in to the app's backend.
    ///
    /// When the ID token has expired, or expires within ``Configuration/refreshLeeway``, the
    /// session refreshes even if its access token is still fresh, as GoogleSignIn's
    /// `refreshTokensIfNeeded` does. The refresh is the session's usual one: concurrent callers,
    /// and other processes sharing the store, share a single token request, and the new state is
    /// saved before it is returned.
    ///
    /// ```swift
    /// let idToken = try await session.freshIDToken()
    /// backendRequest.setValue(idToken.value, forHTTPHeaderField: "X-ID-Token")
    /// ```
    ///
    /// - Returns: The ID token.
    /// - Throws: As ``authorize(_:)->TransportRequest``; ``BearerError/Kind/missingIDToken`` when the server issued
    ///   no ID token (sign in with the `openid` scope) or its refresh answer carried none; the
    ///   session then holds none, and later calls fail the same way without a request.
    public func freshIDToken() async throws -> IDToken {
        try await funnel {
            let leeway = self.configuration.refreshLeeway
            var state = try await self.freshState()
            // Without any ID token there is nothing to renew: the server issues none (no openid
            // scope) or none with refreshes, and refreshing on every call would not change that.
            if state.idToken != nil, state.idTokenNeedsRefresh(at: self.clock.now(), leeway: leeway) {
                state = try await self.freshState(rejecting: state.accessToken ?? AccessToken(""))
            }
            guard let idToken = state.idToken, !state.idTokenNeedsRefresh(at: self.clock.now(), leeway: 0) else {
                throw BearerError.missingIDToken(
                    state.idTokenRejection.map { "The server's ID token was refused: \($0.reason)" }
                        ?? "The server sent no ID token that is still valid; sign in with the openid scope, or "
                        + "use the server's own way to renew ID tokens."
                )
            }
            return idToken
        }
    }
}
