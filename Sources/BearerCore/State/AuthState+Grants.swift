#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension AuthState {
    /// A session holding `tokenResponse`'s tokens and nothing checked: only for revoking them.
    init(unchecked tokenResponse: TokenResponse, server: AuthorizationServer, client: Client) {
        self.init(
            server: server,
            client: client,
            accessToken: tokenResponse.accessToken,
            refreshToken: tokenResponse.refreshToken
        )
    }

    /// Creates the session from the answer to a code exchange, checking its ID token (with the
    /// request's nonce). The session revokes the grant when this fails.
    ///
    /// - Parameters:
    ///   - tokenResponse: The token response.
    ///   - request: The authorization request.
    ///   - clock: Gives the time of receipt and the skew allowed when checking the ID token.
    /// - Throws: ``BearerError/Kind/invalidIDToken`` when the ID token fails a check.
    init(tokenResponse: TokenResponse, request: AuthorizationRequest, clock: WallClock = .system) throws {
        try self.init(
            tokenResponse: tokenResponse,
            server: request.server,
            client: request.client,
            requestedScopes: request.scopes,
            nonce: request.nonce,
            clock: clock
        )
    }

    /// Creates a session from the answer to any grant (authorization code, device code, …),
    /// checking its ID token. A new sign-in needs a usable access token, and an ID token, when one
    /// was sent, that can be read and passes its checks; other fields the answer dropped (see
    /// ``TokenResponse/rejectedFields``) are tolerated.
    ///
    /// - Parameters:
    ///   - tokenResponse: The token response.
    ///   - server: The server.
    ///   - client: The client.
    ///   - requestedScopes: The scopes asked for; the granted ones when the response lists none.
    ///   - nonce: The nonce sent, which the ID token must carry; `nil` when none was sent.
    ///   - clock: Gives the time of receipt and the skew allowed when checking the ID token.
    /// - Throws: ``BearerError/Kind/invalidIDToken`` when the ID token fails a check or cannot be
    ///   read; the access token's failure when it was refused.
    init(
        tokenResponse: TokenResponse,
        server: AuthorizationServer,
        client: Client,
        requestedScopes: [String],
        nonce: String?,
        clock: WallClock = .system
    ) throws {
        let receivedAt = clock.now()
        guard tokenResponse.accessToken != nil else {
            throw tokenResponse.rejectedFields["token_type"] ?? tokenResponse.rejectedFields["access_token"]
                ?? BearerError.invalidResponse("The token response holds no usable access token.")
        }
        if let rejection = tokenResponse.rejectedFields["id_token"] { throw rejection }
        if let idToken = tokenResponse.idToken {
            try idToken.validate(for: server, clientID: client.id, nonce: nonce, clock: clock)
        }
        self.init(
            server: server,
            client: client,
            accessToken: tokenResponse.accessToken,
            accessTokenExpiresAt: tokenResponse.expiresIn.map { receivedAt.addingTimeInterval($0) },
            accessTokenLifetime: tokenResponse.expiresIn,
            refreshToken: tokenResponse.refreshToken,
            refreshTokenExpiresAt: tokenResponse.refreshTokenExpiresIn.map { receivedAt.addingTimeInterval($0) },
            idToken: tokenResponse.idToken,
            grantedScopes: tokenResponse.scopes ?? requestedScopes,
            requestedScopes: requestedScopes,
            user: tokenResponse.idToken.map { User(claims: $0.claims) },
            providerSessionID: tokenResponse.idToken?.claims.sessionID,
            additionalParameters: tokenResponse.additionalParameters
        )
    }

    /// The request that refreshes the access token (RFC 6749 §6); ``applying(refresh:requestedScopes:clock:)``
    /// reads its answer.
    ///
    /// - Parameters:
    ///   - scopes: A narrower scope to ask for, or `nil` for the granted one.
    ///   - additionalParameters: Extra body parameters.
    ///   - now: The time, against which ``refreshTokenExpiresAt`` is checked.
    /// - Returns: The token request.
    /// - Throws: ``BearerError/Kind/signInRequired`` when the session is already marked or has no
    ///   refresh token, ``BearerError/Kind/invalidScope`` for a scope outside RFC 6749 §3.3, and
    ///   `invalid_grant` without an HTTP status, so that no doomed request is sent, once
    ///   ``refreshTokenExpiresAt`` has passed; the encoder's error for a session that could not be saved.
    func refreshRequest(
        scopes: [String]? = nil,
        additionalParameters: [String: String] = [:],
        at now: Date
    ) throws -> TokenRequest {
        if let signInRequiredError {
            throw BearerError.signInRequired(
                "The session's grant is gone (\(signInRequiredError.code)); the user must sign in again."
            )
        }
        guard let refreshToken else {
            throw BearerError.signInRequired(
                "The session has no refresh token, so the access token cannot be renewed; sign in again "
                    + "(for Google, request access_type=offline to get one)."
            )
        }
        if let refreshTokenExpiresAt, now >= refreshTokenExpiresAt {
            // The server would answer invalid_grant (RFC 6749 §5.2); the doomed request is not sent.
            throw OAuthError(
                code: .invalidGrant,
                errorDescription: "The refresh token expired at \(refreshTokenExpiresAt) (refresh_token_expires_in)."
            )
        }
        if let scopes { try Scopes.check(scopes) }
        // Nothing is sent for a session that could not be encoded for its save, which would lose
        // a rotated refresh token. Encoding it here also does the encoder's first-use work in
        // this process (about 0.25 ms of type metadata and conformance lookups) before the
        // request, not between the answer and its save.
        _ = try encoded()
        var parameters = additionalParameters
        // Every refresh of a resource's grant names it (RFC 8707 §2.2): the token is for it alone.
        if let resource { parameters["resource"] = resource.description }
        return TokenRequest.refresh(
            refreshToken,
            server: server,
            client: client,
            scopes: scopes,
            additionalParameters: parameters
        )
    }

    /// Merges the answer to a refresh into a new session. Once the server has answered with tokens,
    /// they are kept whatever its other fields hold, so a rotated refresh token is never lost: a
    /// field the answer dropped (``TokenResponse/rejectedFields``: an unreadable ID token, an
    /// `expires_in` that is not a number of seconds, a `scope` that is not a string) costs only
    /// that field.
    ///
    /// - An access token the answer refused leaves the session with none (it is never stamped or
    ///   printed); a rotated refresh token in the same answer is kept all the same.
    /// - An `expires_in` that is absent or dropped leaves the expiry unknown.
    /// - A new refresh token replaces the old one (rotation); none in the response keeps the old
    ///   one, and its ``refreshTokenExpiresAt`` unless `refresh_token_expires_in` says otherwise.
    /// - No `scope` keeps the granted scopes (or the narrower ones asked for).
    /// - A new ID token that passes its checks replaces the old one. One that fails them, or cannot
    ///   be read at all, is dropped and the failure kept in ``idTokenRejection``. When none is kept, the old one stays only
    ///   while it has not expired.
    /// - A new ID token for another user (`sub` differs, OpenID Connect Core §12.2) is dropped and
    ///   the session is marked as needing a new sign-in (`login_required`, see
    ///   ``signInRequiredError``); the new tokens are kept so that signing out can revoke them.
    ///
    /// - Parameters:
    ///   - response: The token response.
    ///   - requestedScopes: The narrower scope asked for, if any.
    ///   - clock: Gives the time of receipt and the skew allowed when checking a new ID token.
    /// - Returns: The refreshed session.
    func applying(
        refresh response: TokenResponse,
        requestedScopes: [String]? = nil,
        clock: WallClock = .system
    ) -> AuthState {
        let receivedAt = clock.now()
        var next = self
        next.accessToken = response.accessToken
        next.accessTokenExpiresAt = response.expiresIn.map { receivedAt.addingTimeInterval($0) }
        next.accessTokenLifetime = response.expiresIn
        if response.accessToken == nil {
            next.accessTokenExpiresAt = nil
            next.accessTokenLifetime = nil
        }
        if let refreshToken = response.refreshToken {
            next.refreshToken = refreshToken
            next.refreshTokenExpiresAt = nil
        }
        if let lifetime = response.refreshTokenExpiresIn {
            next.refreshTokenExpiresAt = receivedAt.addingTimeInterval(lifetime)
        }
        if let scopes = response.scopes {
            next.grantedScopes = scopes
        } else if let requestedScopes, !requestedScopes.isEmpty {
            next.grantedScopes = requestedScopes
        }
        next.additionalParameters = response.additionalParameters
        // The grant keeps its key whatever type this token has: its refresh token stays bound.
        next.accessTokenType = response.accessTokenType
        next.idTokenRejection = response.rejectedFields["id_token"]
        if let idToken = response.idToken {
            do {
                try idToken.validate(for: server, clientID: client.id, nonce: nil, clock: clock)
                if let user, !user.subject.isEmpty, user.subject != idToken.claims.subject {
                    next.signInRequiredError = OAuthError(
                        code: .loginRequired,
                        errorDescription: "The refreshed ID token names another user than the one who signed in "
                            + "(sub differs)."
                    )
                    next.dropIDToken(ifExpiredAt: receivedAt)
                    return next
                }
                next.idToken = idToken
                next.user = User(claims: idToken.claims)
                next.providerSessionID = idToken.claims.sessionID ?? next.providerSessionID
                return next
            } catch {
                next.idTokenRejection =
                    error as? BearerError ?? BearerError.invalidIDToken("The refreshed ID token failed a check.")
            }
        }
        next.dropIDToken(ifExpiredAt: receivedAt)
        return next
    }

    private mutating func dropIDToken(ifExpiredAt now: Date) {
        if let idToken, now >= idToken.claims.expiresAt { self.idToken = nil }
    }
}
