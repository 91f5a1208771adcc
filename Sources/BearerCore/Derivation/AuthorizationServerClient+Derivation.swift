#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension AuthorizationServerClient {
    /// A new derived session, made by following `derivation` from `parent`'s token, at `server`
    /// as `client`. Nothing is saved.
    ///
    /// - A token exchange must issue an access token (or a JWT) presented as Bearer; another
    ///   token is refused and revoked, best effort.
    /// - An ID-JAG is checked (``IdentityAssertion``) before it is sent to `server`; the grant
    ///   there is bound to a DPoP key when this client's settings bind new grants at `server`.
    /// - A grant whose answer is refused (an ID token that fails its checks) is revoked.
    func derivedState(
        _ derivation: SessionDerivation,
        at server: AuthorizationServer,
        as client: Client,
        resource: ProtectedResource?,
        from parent: AuthSession?
    ) async throws -> AuthState {
        let subject: SecurityToken
        if let parent {
            subject = try await parent.subjectToken(of: derivation.subjectTokenType)
        } else if let workloadToken = derivation.workloadToken {
            subject = try workloadToken.read()
        } else {
            throw BearerError.invalidConfiguration("A derived session needs a parent session or a workload token.")
        }
        var state: AuthState
        switch derivation.method {
        case .tokenExchange:
            let request = TokenExchangeRequest(
                subjectToken: subject, subjectTokenType: derivation.subjectTokenType,
                requestedTokenType: derivation.requestedTokenType, audiences: derivation.audiences,
                resources: derivation.resources + (resource.map { [$0.identifier] } ?? []), scopes: derivation.scopes)
            let answer = try await exchangeToken(request, at: server, as: client)
            guard answer.issuedTokenType.isAccessToken, !answer.isNotAccessToken else {
                await revokeIssuedTokens(of: answer, at: server, as: client)
                throw BearerError.invalidResponse(
                    "The token exchange issued a \(answer.issuedTokenType.rawValue.printable) presented as "
                        + "\(answer.tokenType.printable), which is not an access token a session can use; it was "
                        + "refused and revoked where the server allows.")
            }
            let response = try TokenResponse(json: answer.json)
            state = try await acceptGrant(response, from: server, to: client) {
                try AuthState(
                    tokenResponse: $0, server: server, client: client, requestedScopes: derivation.scopes, nonce: nil,
                    clock: clock)
            }
            if let impersonation = derivation.serviceAccountImpersonation {
                state = try await impersonating(impersonation, with: state, scopes: derivation.scopes)
            }
        case .identityAssertion:
            guard let parent else {
                throw BearerError.invalidConfiguration("An ID-JAG is asked for with a parent session's ID token.")
            }
            let idp = await parent.state
            let answer = try await parent.serverClient.exchangeToken(
                TokenExchangeRequest(
                    subjectToken: subject, subjectTokenType: .idToken, requestedTokenType: .identityAssertion,
                    audiences: [server.issuer.absoluteString], resources: resource.map { [$0.identifier] } ?? [],
                    scopes: derivation.scopes),
                at: idp.server, as: idp.client)
            let assertion = try IdentityAssertion(answer, for: server, as: client, resource: resource, clock: clock)
            let proofKey = try await newGrantKey(at: server)
            let response = try await jwtBearerGrant(
                assertion: assertion.token, scopes: derivation.scopes, resource: resource, at: server, as: client,
                provingWith: proofKey)
            state = try await acceptGrant(response, from: server, to: client, boundTo: proofKey) {
                try AuthState(
                    tokenResponse: $0, server: server, client: client, requestedScopes: derivation.scopes, nonce: nil,
                    clock: clock
                ).bound(as: $0, to: proofKey?.record, requiringDPoP: dpop?.use == .required)
            }
        }
        state.derivation = derivation
        state.resource = resource
        if state.user == nil, let parent { state.user = await parent.state.user }
        return state
    }
}
