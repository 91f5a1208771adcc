#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The pushed authorization request endpoint (RFC 9126).
extension AuthorizationServerClient {
    /// `request`, pushed to its server first when `use` and the server's metadata say so: the
    /// request's parameters (or its signed request object) are POSTed, authenticated as its client, and the answer's `request_uri`
    /// becomes what the browser carries (see ``AuthorizationRequest/url``). Unchanged when nothing
    /// is to be pushed.
    ///
    /// A DPoP sign-in's key is named by the request's `dpop_jkt` (RFC 9449 §10.1), which servers
    /// that require nonces accept without a proof.
    ///
    /// - Parameters:
    ///   - request: The authorization request.
    ///   - use: When requests are pushed.
    /// - Returns: The request, carrying its `request_uri` when it was pushed.
    /// - Throws: What ``PushedAuthorizationUse`` throws for a setting the server's metadata
    ///   contradicts; ``OAuthError`` when the server refused the request with an error code;
    ///   ``BearerError/Kind/invalidResponse`` when it refused it without one, or answered without
    ///   a usable `request_uri` or `expires_in`; never a request sent through the browser instead.
    func pushing(_ request: AuthorizationRequest, as use: PushedAuthorizationUse) async throws -> AuthorizationRequest {
        guard let endpoint = try use.endpoint(of: request.server) else { return request }
        // A signed request is pushed as its request object alone (RFC 9126 §3).
        let parameters =
            request.requestObject.map { [FormParameter("request", $0)] }
            ?? request.queryParameters.map { FormParameter($0.name, $0.value) }
        let response = try await postForm(parameters, to: endpoint, server: request.server, client: request.client)
        let object: [String: JSONValue]
        do {
            object = try Self.jsonObject(
                from: response, endpointName: "pushed authorization request endpoint", now: clock.now())
        } catch let error as BearerError where error.kind == .invalidResponse && (400..<500).contains(response.status) {
            throw BearerError.invalidResponse(
                "The pushed authorization request endpoint refused the request (HTTP \(response.status)) without "
                    + "saying why, and nothing was shown to the user. Check what the server has registered for "
                    + "client \(request.client.id): its redirect URIs, its credentials, and the scopes and resources "
                    + "it may ask for.",
                underlyingError: error)
        }
        var pushed = request
        pushed.pushed = try PushedAuthorization(answer: object, receivedAt: clock.now())
        return pushed
    }
}
