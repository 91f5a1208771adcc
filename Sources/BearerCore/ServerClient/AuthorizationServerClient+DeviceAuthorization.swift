#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The device authorization endpoint (RFC 8628 §3.1), and the polling of the token endpoint that
// follows (§3.4, §3.5).
extension AuthorizationServerClient {
    /// Asks `server`'s device authorization endpoint for codes. The request always carries
    /// `client_id` in its body, as §3.1 requires, even when the client also authenticates with
    /// HTTP Basic; at Google the client secret goes in the body too.
    ///
    /// - Parameters:
    ///   - server: The server; it must have a device authorization endpoint.
    ///   - client: The client.
    ///   - scopes: The scopes to ask for.
    /// - Returns: The codes and where the user enters them.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` without an endpoint,
    ///   ``BearerError/Kind/invalidScope`` for a scope outside RFC 6749 §3.3; ``OAuthError`` or
    ///   ``BearerError`` when the server refuses or answers something else.
    func startDeviceAuthorization(
        at server: AuthorizationServer,
        as client: Client,
        scopes: [String]
    ) async throws -> DeviceAuthorization {
        try securityProfile.checkDeviceSignIn()
        let (endpoint, parameters) = try DeviceAuthorization.request(at: server, scopes: scopes)
        let response = try await postForm(
            parameters, to: endpoint, server: server, client: client, alwaysSendingClientID: true)
        let now = clock.now()
        let json = try Self.jsonObject(from: response, endpointName: "device authorization endpoint", now: now)
        return try DeviceAuthorization(json: json, server: server, client: client, scopes: scopes, now: now)
    }

    /// Polls the token endpoint until the user approves: waits the device's interval on the
    /// client's clock between requests, adds 5 s on `slow_down`, and stops at the codes' expiry
    /// or `access_denied`.
    ///
    /// - Parameters:
    ///   - device: The codes the server issued.
    ///   - progress: Told before each wait how long the code has left, and of each slow-down;
    ///     awaited before the wait begins.
    ///   - proofKey: The key a DPoP sign-in binds the grant to; each poll carries a proof.
    /// - Returns: The signed-in session (a grant whose ID token fails its checks is revoked).
    /// - Throws: ``OAuthError`` `access_denied` or `expired_token`; ``BearerError/Kind/timedOut``
    ///   when the codes expire; other errors of the token endpoint.
    func waitForApproval(
        of device: DeviceAuthorization,
        progress: @Sendable (DeviceSignInProgress) async -> Void = { _ in },
        provingWith proofKey: (any DPoPKey)? = nil
    ) async throws -> AuthState {
        var interval = device.interval
        let request = device.tokenRequest
        while true {
            let left = device.expiresAt.timeIntervalSince(clock.now())
            guard left > 0 else {
                throw BearerError.timedOut(
                    "The code \(device.userCode) expired before it was approved; run the sign-in again.")
            }
            await progress(.waiting(secondsLeft: left))
            try await clock.sleep(for: .milliseconds(Int64(min(interval, left) * 1000)))
            do {
                let answer = try await token(request, provingWith: proofKey)
                return try await acceptGrant(answer, from: device.server, to: device.client, boundTo: proofKey) {
                    try AuthState(
                        tokenResponse: $0,
                        server: device.server,
                        client: device.client,
                        requestedScopes: device.scopes,
                        nonce: nil,
                        clock: clock
                    ).bound(as: $0, to: proofKey?.record, requiringDPoP: dpop?.use == .required)
                }
            } catch let error as OAuthError where error.code == .authorizationPending {
                continue
            } catch let error as OAuthError where error.code == .slowDown {
                interval += 5
                await progress(.slowedDown(interval: interval))
            }
        }
    }
}
