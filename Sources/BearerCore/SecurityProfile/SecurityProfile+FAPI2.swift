#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One client rule of the FAPI 2.0 Security Profile, as a refusal names it.
///
/// PKCE with S256 is not among them: Bearer sends no other method, and discovery refuses a server
/// whose `code_challenge_methods_supported` leaves it out.
enum FAPI2Rule: String, Sendable, CaseIterable {
    /// Every authorization request is pushed first (RFC 9126).
    case pushedAuthorizationRequests = "pushed authorization requests (RFC 9126)"
    /// Every token is bound to the client's key; FAPI 2.0 also allows mutual TLS, which Bearer
    /// does not offer.
    case senderConstrainedTokens = "tokens bound to a DPoP key (RFC 9449), with no fallback to Bearer tokens"
    /// The client authenticates with a signed assertion (RFC 7523).
    case clientAuthentication = "client authentication with private_key_jwt (RFC 7523)"
    /// Every redirect carries the issuer, and it is checked (RFC 9207).
    case issuerInAuthorizationResponse = "the issuer in every authorization response (RFC 9207)"
    /// Every ID token's signature is checked against the server's keys.
    case signedIDTokens = "ID tokens whose signatures are checked against the server's keys"
    /// Signatures are made and accepted with PS256 or ES256 only.
    case signingAlgorithms = "signatures made with PS256 or ES256 only"
    /// Sign-ins use the authorization code flow.
    case authorizationCodeFlow = "sign-ins through the authorization code flow"
}

// The FAPI 2.0 Security Profile's client rules, checked in one place before anything is sent.
extension SecurityProfile {
    /// The algorithms FAPI 2.0 allows that Bearer verifies (the profile also allows EdDSA).
    static let fapi2Algorithms: Set<JWSAlgorithm> = [.es256, .ps256]

    /// Checks a sign-in's settings (or a scope upgrade's) at `server` before its request is made.
    ///
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` naming the rule a setting or the
    ///   server breaks.
    func checkSignIn(
        as client: Client,
        at server: AuthorizationServer,
        pushing: PushedAuthorizationUse,
        dpop: DPoPSettings?,
        idTokenSignatures: IDTokenSignatureSettings?,
        clientKeys: (any ClientKeySource)?,
        assertionAudience: ClientAssertionAudience = .issuer
    ) throws {
        guard self == .fapi2 else { return }
        if pushing == .never {
            throw Self.refusal(
                .pushedAuthorizationRequests, "Configuration.pushedAuthorization is .never", fix: "set it to .required")
        }
        if server.pushedAuthorizationRequestEndpoint == nil {
            throw Self.refusal(
                .pushedAuthorizationRequests,
                "\(server.issuer.absoluteString) names no pushed_authorization_request_endpoint",
                fix: "set AuthorizationServer.pushedAuthorizationRequestEndpoint, or use a server that takes them")
        }
        guard let dpop, dpop.use == .required else {
            throw Self.refusal(
                .senderConstrainedTokens,
                "Configuration.dpop.use is not .required, so a server that does not advertise DPoP would get "
                    + "Bearer tokens", fix: "set it to .required")
        }
        if dpop.keys == nil {
            throw Self.refusal(
                .senderConstrainedTokens, "no DPoP key source is configured (Configuration.dpop.keys)",
                fix: "configure PlatformDPoPKeys() from Bearer, or your own")
        }
        if let algorithms = server.dpopSigningAlgorithms, !algorithms.contains(JWSAlgorithm.es256.rawValue) {
            throw Self.refusal(
                .senderConstrainedTokens,
                "\(server.issuer.absoluteString) takes DPoP proofs signed with \(algorithms.joined(separator: ", ")) "
                    + "only (dpop_signing_alg_values_supported), and Bearer signs them with ES256",
                fix: "ask its operator to accept ES256")
        }
        try checkRequest(as: client, at: server, clientKeys: clientKeys, assertionAudience: assertionAudience)
        if !server.sendsIssuerInAuthorizationResponse {
            throw Self.refusal(
                .issuerInAuthorizationResponse,
                "\(server.issuer.absoluteString) does not say that its redirects carry iss "
                    + "(authorization_response_iss_parameter_supported)",
                fix: "set AuthorizationServer.sendsIssuerInAuthorizationResponse where the server sends it")
        }
        guard let idTokenSignatures, idTokenSignatures.requirement == .required else {
            throw Self.refusal(
                .signedIDTokens, "Configuration.idTokenSignatures.requirement is not .required",
                fix: "set it to .required")
        }
        if idTokenSignatures.verifier == nil {
            throw Self.refusal(
                .signedIDTokens, "no signature verifier is configured (Configuration.idTokenSignatures.verifier)",
                fix: "configure PlatformSignatureVerifier() from Bearer, or your own")
        }
        let accepted = idTokenSignatures.algorithms.intersection(JWSAlgorithm.verifiable)
        if accepted.isEmpty || !accepted.isSubset(of: Self.fapi2Algorithms) {
            let names = accepted.map(\.rawValue).sorted().joined(separator: ", ")
            throw Self.refusal(
                .signingAlgorithms,
                "Configuration.idTokenSignatures.algorithms accepts \(names.isEmpty ? "none" : names)",
                fix: "set it to [.es256, .ps256] or a part of them")
        }
    }

    /// Checks a request to one of `server`'s endpoints (token, pushed request, revocation) made
    /// as `client`.
    ///
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` naming the rule broken.
    func checkRequest(
        as client: Client, at server: AuthorizationServer, clientKeys: (any ClientKeySource)?,
        assertionAudience: ClientAssertionAudience = .issuer
    ) throws {
        guard self == .fapi2 else { return }
        let method = AuthorizationServerClient.authenticationMethod(of: client, at: server)
        guard method == .privateKeyJWT else {
            throw Self.refusal(
                .clientAuthentication, "client \(client.id) authenticates with \(method.rawValue)",
                fix: "register it for private_key_jwt and set Client.authentication to .privateKeyJWT")
        }
        if clientKeys == nil {
            throw Self.refusal(
                .clientAuthentication, "no client key source is configured (Configuration.clientKeys)",
                fix: "configure the key the client registered, such as StaticClientKey")
        }
        if assertionAudience != .issuer {
            throw Self.refusal(
                .clientAuthentication, "Configuration.clientAssertionAudience is .endpoint",
                fix: "set it to .issuer: assertions must name the issuer alone")
        }
    }

    /// Checks that `state`'s grant may be refreshed.
    ///
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` for a grant not bound to a DPoP key;
    ///   the session is kept.
    func checkGrant(_ state: AuthState) throws {
        guard self == .fapi2, state.accessTokenType != .dpop else { return }
        throw Self.refusal(
            .senderConstrainedTokens,
            "the session's grant holds Bearer tokens, not tokens bound to a DPoP key; the session was kept",
            fix: "sign in again with this configuration, and sign the old session out")
    }

    /// Checks a device sign-in (RFC 8628), which FAPI 2.0 does not cover.
    ///
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` under ``fapi2``.
    func checkDeviceSignIn() throws {
        guard self == .fapi2 else { return }
        throw Self.refusal(
            .authorizationCodeFlow, "the device authorization grant (RFC 8628) is outside the profile",
            fix: "sign in with AuthSession.signIn, or use the standard profile for this client")
    }

    /// The error for a broken rule: which rule, what broke it, and what to do.
    private static func refusal(_ rule: FAPI2Rule, _ problem: String, fix: String) -> BearerError {
        BearerError.invalidConfiguration(
            "The FAPI 2.0 Security Profile (Configuration.securityProfile is .fapi2) requires \(rule.rawValue): "
                + "\(problem); \(fix). Nothing was sent.")
    }
}
