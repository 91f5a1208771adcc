#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The revocation endpoint (RFC 7009).
extension AuthorizationServerClient {
    /// Sends `request` to the revocation endpoint.
    ///
    /// - Parameter request: The revocation request.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when the server has no revocation endpoint;
    ///   ``OAuthError`` or ``BearerError`` when the server refuses or cannot be reached.
    func revoke(_ request: RevocationRequest, provingWith proofKey: (any DPoPKey)? = nil) async throws {
        let server = request.server
        guard let endpoint = server.revocationEndpoint else {
            throw BearerError.invalidConfiguration(
                "\(server.issuer.absoluteString) has no revocation endpoint, so the grant was not revoked there."
            )
        }
        let response = try await postForm(
            request.parameters, to: endpoint, server: server, client: request.client, provingWith: proofKey)
        if (200..<300).contains(response.status) { return }
        _ = try Self.jsonObject(from: response, endpointName: "revocation endpoint", now: clock.now())
        throw BearerError.invalidResponse(
            "The revocation endpoint answered HTTP \(response.status) without an error code."
        )
    }

    /// Revokes every token of `state` at its server, best effort: each request is sent even when
    /// an earlier one failed (see ``RevocationRequest/revokingEveryToken(of:)`` for the order).
    ///
    /// A server that does not revoke access tokens answers `unsupported_token_type` (RFC 7009
    /// §2.2.1); that answer to the access token's request does not count as a failure once the
    /// refresh token was revoked.
    ///
    /// - Parameter state: The session whose tokens are revoked.
    /// - Returns: ``RevocationOutcome/revoked`` when every token was revoked,
    ///   ``RevocationOutcome/notRevoked`` when the server has no revocation endpoint or the session
    ///   holds no token, ``RevocationOutcome/failed(_:)`` with the first failure otherwise.
    func revokeEveryToken(of state: AuthState) async -> RevocationOutcome {
        let requests = RevocationRequest.revokingEveryToken(of: state)
        guard state.server.revocationEndpoint != nil, !requests.isEmpty else { return .notRevoked }
        // A DPoP grant's requests carry a proof where its key can be found; revocation does not
        // need one (RFC 7009 knows no DPoP), so a missing key does not stop the revocation.
        let proofKey = try? proofKey(of: state)
        var failure: (any Error)?
        for request in requests {
            do {
                try await revoke(request, provingWith: proofKey)
            } catch let error as OAuthError
                where error.code == "unsupported_token_type" && request.hint == "access_token"
                && state.refreshToken != nil
            {
                continue
            } catch {
                failure = failure ?? error
            }
        }
        return failure.map { .failed($0) } ?? .revoked
    }
}
