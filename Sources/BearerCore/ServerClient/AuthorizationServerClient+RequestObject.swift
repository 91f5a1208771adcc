#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Signed request objects (JAR, RFC 9101), and the one place an authorization request is made
// ready for the browser.
extension AuthorizationServerClient {
    /// `request` made ready to show: signed as a request object where `signing` says so, then
    /// pushed where `pushing` says so (the request object is what is pushed).
    ///
    /// - Parameters:
    ///   - request: The authorization request.
    ///   - signing: When requests are signed.
    ///   - pushing: When requests are pushed.
    /// - Returns: The request to show.
    /// - Throws: What ``checkSignIn(as:at:pushing:)``, ``signing(_:as:)`` and ``pushing(_:as:)``
    ///   throw; nothing is to be shown then.
    func preparing(
        _ request: AuthorizationRequest, signing: RequestObjectUse, pushing: PushedAuthorizationUse
    ) async throws -> AuthorizationRequest {
        try checkSignIn(as: request.client, at: request.server, pushing: pushing)
        return try await self.pushing(self.signing(request, as: signing), as: pushing)
    }

    /// Checks a sign-in as `client` at `server` against the security profile, before anything
    /// is made or sent for it.
    ///
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` naming the rule broken.
    func checkSignIn(as client: Client, at server: AuthorizationServer, pushing: PushedAuthorizationUse) throws {
        try securityProfile.checkSignIn(
            as: client, at: server, pushing: pushing, dpop: dpop, idTokenSignatures: idTokenSignatures,
            clientKeys: clientKeys, assertionAudience: clientAssertionAudience)
    }

    /// `request`, carrying its signed request object when `use` and the server's metadata say so
    /// (see ``RequestObject``), signed with the client's key from ``clientKeys``.
    ///
    /// - Parameters:
    ///   - request: The authorization request.
    ///   - use: When requests are signed.
    /// - Returns: The request, signed or unchanged.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when `use` and the server disagree (see
    ///   ``RequestObjectUse``), no client key source is configured, or an extra parameter is named
    ///   as a claim Bearer sets; ``BearerError/Kind/proofOfPossession`` when the key cannot be had
    ///   or cannot sign. Nothing is sent then.
    func signing(_ request: AuthorizationRequest, as use: RequestObjectUse) async throws -> AuthorizationRequest {
        guard try use.signs(at: request.server) else { return request }
        let key = try await clientKey(of: request.client, at: request.server, for: "signs its request objects")
        var signed = request
        signed.requestObject = try await RequestObject.signed(request, with: key, at: clock.now())
        return signed
    }
}
