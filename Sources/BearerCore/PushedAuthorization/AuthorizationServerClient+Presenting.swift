#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Showing a prepared request, and pushing it again when its reference expired before the page
// was opened (RFC 9126 §2.2: a `request_uri` lives for `expires_in` seconds).
extension AuthorizationServerClient {
    /// Prepares `request` (signed, pushed), shows it with `agent` and reads the redirect. Where the request was pushed and the page came back refused because its
    /// reference was no longer good (`invalid_request_uri`, RFC 9101 §7.1, or `invalid_request`
    /// once its `expires_in` had passed), as when the user opened the address late, a new request
    /// is made (new `state`, PKCE and nonce), pushed and shown once more.
    ///
    /// - Parameters:
    ///   - request: The authorization request, neither signed nor pushed yet.
    ///   - agent: Shows the page.
    ///   - signing: When requests are signed.
    ///   - pushing: When requests are pushed.
    /// - Returns: The request shown last and its response.
    /// - Throws: What ``preparing(_:signing:pushing:)``, the agent and ``AuthorizationResponse``
    ///   throw, the second attempt's errors included.
    func presenting(
        _ request: AuthorizationRequest,
        with agent: some AuthorizationAgent,
        signing: RequestObjectUse,
        pushing: PushedAuthorizationUse
    ) async throws -> (request: AuthorizationRequest, response: AuthorizationResponse) {
        let prepared = try await preparing(request, signing: signing, pushing: pushing)
        do {
            return (prepared, try AuthorizationResponse(redirect: try await agent.present(prepared), for: prepared))
        } catch let refusal as OAuthError where Self.refusesExpiredReference(refusal, of: prepared, now: clock.now()) {
            let again = try await preparing(try request.renewed(), signing: signing, pushing: pushing)
            return (again, try AuthorizationResponse(redirect: try await agent.present(again), for: again))
        }
    }

    /// Whether `refusal` of the page of `request` says its pushed reference was no longer good.
    static func refusesExpiredReference(_ refusal: OAuthError, of request: AuthorizationRequest, now: Date) -> Bool {
        guard let pushed = request.pushed else { return false }
        return refusal.code == .invalidRequestURI || (refusal.code == .invalidRequest && now >= pushed.expiresAt)
    }
}
