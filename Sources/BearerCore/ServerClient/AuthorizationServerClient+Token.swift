#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The token endpoint (RFC 6749 §3.2): code exchanges, refreshes and the device flow's polls.
extension AuthorizationServerClient {
    /// Sends `request` to the token endpoint and reads the answer.
    ///
    /// - Parameter request: The token request.
    /// - Returns: The token response; see ``TokenResponse`` for what it keeps of a malformed answer.
    /// - Throws: ``OAuthError`` when the server reports an error; ``BearerError`` when the endpoint
    ///   is not secure, cannot be reached, or answers something other than a token response.
    func token(_ request: TokenRequest, provingWith proofKey: (any DPoPKey)? = nil) async throws -> TokenResponse {
        let response = try await postForm(
            request.parameters, to: request.endpoint, server: request.server, client: request.client,
            provingWith: proofKey)
        return try TokenResponse(
            json: Self.jsonObject(from: response, endpointName: "token endpoint", now: clock.now()),
            proofSent: proofKey != nil
        )
    }

    /// Refreshes `state`'s access token (RFC 6749 §6) and returns the new session; `state` is
    /// unchanged.
    ///
    /// - Parameters:
    ///   - state: The session.
    ///   - scopes: A narrower scope to ask for, or `nil` for the granted one.
    ///   - additionalParameters: Extra body parameters.
    /// - Returns: The refreshed session; see ``AuthState/applying(refresh:requestedScopes:clock:)``
    ///   for what it keeps of the answer.
    /// - Throws: What ``AuthState/refreshRequest(scopes:additionalParameters:at:)`` throws, before
    ///   anything is sent; ``OAuthError`` from the server (`invalid_grant` means the user must
    ///   sign in again); or another ``BearerError``.
    func refresh(
        _ state: AuthState,
        scopes: [String]? = nil,
        additionalParameters: [String: String] = [:]
    ) async throws -> AuthState {
        try securityProfile.checkGrant(state)
        let request = try state.refreshRequest(
            scopes: scopes, additionalParameters: additionalParameters, at: clock.now())
        let proofKey = try proofKey(of: state)
        let answer = try await token(request, provingWith: proofKey)
        return state.applying(
            refresh: try await checkingIDTokenSignature(of: answer, refreshing: state, provedBy: proofKey),
            requestedScopes: scopes, clock: clock)
    }

    /// `answer` to a refresh of `state`, once the signature of its ID token is checked.
    ///
    /// A refused signature refuses the answer: its new tokens are revoked (the refresh token only
    /// when it is a new one) and `state` stays as it was, unmarked. When the server's keys cannot be
    /// fetched, the grant is kept and only the ID token dropped, its failure recorded, so that a
    /// rotated refresh token is never lost to a key server being down.
    private func checkingIDTokenSignature(
        of answer: TokenResponse, refreshing state: AuthState, provedBy proofKey: (any DPoPKey)?
    ) async throws -> TokenResponse {
        do {
            try await checkIDTokenSignature(of: answer, from: state.server)
            return answer
        } catch let error as BearerError where error.kind == .invalidSignature || error.kind == .invalidConfiguration {
            var refused = AuthState(unchecked: answer, server: state.server, client: state.client)
            if refused.refreshToken == state.refreshToken { refused.refreshToken = nil }
            refused.dpopKey = proofKey?.record
            _ = await revokeEveryToken(of: refused)
            throw error
        } catch {
            var kept = answer
            kept.idToken = nil
            kept.rejectedFields["id_token"] = BearerError.invalidIDToken(
                "The refreshed ID token's signature could not be checked, because the server's keys could not be "
                    + "fetched; it was not kept, and the next refresh tries again.",
                underlyingError: error)
            return kept
        }
    }

    /// Exchanges an authorization code for tokens (RFC 6749 §4.1.3, RFC 7636 §4.5) and makes the
    /// session, checking its ID token against the request's nonce; a grant refused there is revoked.
    ///
    /// - Parameters:
    ///   - response: The checked redirect.
    ///   - request: The request it answers.
    ///   - additionalParameters: Extra body parameters (RFC 8707 `resource`, `audience`); they
    ///     cannot replace the standard ones.
    ///   - proofKey: The key a DPoP sign-in binds the grant to (see ``newGrantKey(at:)``).
    /// - Returns: The new session.
    /// - Throws: ``OAuthError`` from the server (`invalid_grant` for a wrong verifier or a used
    ///   code), or ``BearerError``.
    func exchange(
        _ response: AuthorizationResponse,
        for request: AuthorizationRequest,
        additionalParameters: [String: String] = [:],
        provingWith proofKey: (any DPoPKey)? = nil
    ) async throws -> AuthState {
        let answer = try await token(
            .authorizationCode(response, for: request, additionalParameters: additionalParameters),
            provingWith: proofKey)
        var state = try await acceptGrant(answer, from: request.server, to: request.client, boundTo: proofKey) {
            try AuthState(tokenResponse: $0, request: request, clock: clock)
                .bound(as: $0, to: proofKey?.record, requiringDPoP: dpop?.use == .required)
        }
        state.authorizationResponseParameters = response.additionalParameters
        return state
    }

    /// A new key for a sign-in at `server`, when the client's ``DPoPSettings`` bind new grants
    /// there; `nil` for a Bearer sign-in.
    ///
    /// - Throws: ``BearerError/Kind/proofOfPossession`` when DPoP is required and no key can be
    ///   made (no key source configured, or the source failed).
    func newGrantKey(at server: AuthorizationServer) async throws -> (any DPoPKey)? {
        guard let dpop, dpop.signInUsesDPoP(at: server) else { return nil }
        guard let keys = dpop.keys else {
            guard dpop.use == .required else { return nil }
            throw BearerError.proofOfPossession(
                "DPoP is required (DPoPSettings.use) but no key source is configured (DPoPSettings.keys); "
                    + "configure PlatformDPoPKeys() from Bearer, or your own. Nothing was sent.")
        }
        do {
            return try await keys.makeKey()
        } catch let error as BearerError {
            throw error
        } catch {
            throw BearerError.proofOfPossession(
                "No DPoP key could be made for the sign-in (\(type(of: error))); nothing was sent.",
                underlyingError: error)
        }
    }

    /// The session a new grant's answer makes, through `accept` once its ID token's signature is
    /// checked; when either refuses it (an ID token whose signature or claims fail their checks, no
    /// usable access token), the grant is revoked, best effort, rather than left valid unkept, and
    /// the refusal thrown.
    ///
    /// - Parameters:
    ///   - response: The answer to a code exchange or a device-flow poll.
    ///   - server: The server that issued it.
    ///   - client: The client it was issued to.
    ///   - proofKey: The key the request proved, whose proofs then go with the revocation.
    ///   - accept: Checks the answer and makes the session.
    /// - Returns: The session.
    func acceptGrant(
        _ response: TokenResponse,
        from server: AuthorizationServer,
        to client: Client,
        boundTo proofKey: (any DPoPKey)? = nil,
        _ accept: (TokenResponse) throws -> AuthState
    ) async throws -> AuthState {
        do {
            // Nothing in the ID token is read before its signature is checked.
            try await checkIDTokenSignature(of: response, from: server)
            return try accept(response)
        } catch {
            var refused = AuthState(unchecked: response, server: server, client: client)
            refused.dpopKey = proofKey?.record
            _ = await revokeEveryToken(of: refused)
            throw error
        }
    }
}
