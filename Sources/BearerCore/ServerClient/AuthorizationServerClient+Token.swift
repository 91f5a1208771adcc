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
        let request = try state.refreshRequest(
            scopes: scopes, additionalParameters: additionalParameters, at: clock.now())
        let answer = try await token(request, provingWith: try proofKey(of: state))
        return state.applying(refresh: answer, requestedScopes: scopes, clock: clock)
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

    /// The session a new grant's answer makes, through `accept`; when `accept` refuses it (an ID
    /// token that fails its checks, no usable access token), the grant is revoked, best effort,
    /// rather than left valid unkept, and the refusal thrown.
    ///
    /// - Parameters:
    ///   - response: The answer to a code exchange or a device-flow poll.
    ///   - server: The server that issued it.
    ///   - client: The client it was issued to.
    ///   - proofKey: The key the request proved, whose proofs then go with the revocation.
    ///   - accept: Checks the answer and makes the session.
    /// - Returns: The session.
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

    func acceptGrant(
        _ response: TokenResponse,
        from server: AuthorizationServer,
        to client: Client,
        boundTo proofKey: (any DPoPKey)? = nil,
        _ accept: (TokenResponse) throws -> AuthState
    ) async throws -> AuthState {
        do {
            return try accept(response)
        } catch {
            var refused = AuthState(unchecked: response, server: server, client: client)
            refused.dpopKey = proofKey?.record
            _ = await revokeEveryToken(of: refused)
            throw error
        }
    }
}
