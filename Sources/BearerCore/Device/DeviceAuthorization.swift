#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// The device authorization grant (RFC 8628), for tools on machines without a browser: the user
/// opens a URL on another device and types a short code, while the tool polls for the tokens.
///
/// ```swift
/// let device = try await DeviceAuthorization.start(server: server, client: client, scopes: ["email"], using: transport)
/// print("Open \(device.verificationURI) and enter \(device.userCode)")
/// let state = try await device.waitForApproval(using: transport)
/// ```
package struct DeviceAuthorization: Sendable, Hashable {
    /// The grant type of the polling requests (RFC 8628 §3.4).
    package static let grantType = "urn:ietf:params:oauth:grant-type:device_code"

    /// The server.
    package let server: AuthorizationServer
    /// The client.
    package let client: Client
    /// The scopes asked for.
    package let scopes: [String]
    /// The device code, a secret sent only to the token endpoint.
    package let deviceCode: String
    /// The code the user types.
    package let userCode: String
    /// Where the user goes.
    package let verificationURI: URL
    /// A URL that carries the user code too, when the server gives one.
    package let verificationURIComplete: URL?
    /// When the codes expire.
    package let expiresAt: Date
    /// The polling interval the server asked for (5 s when it did not say).
    package let interval: TimeInterval

    /// Asks the device authorization endpoint for codes (RFC 8628 §3.1). The request always
    /// carries `client_id` in its body, as §3.1 requires, even when the client also authenticates
    /// with HTTP Basic; at Google the client secret goes in the body too.
    ///
    /// - Parameters:
    ///   - server: The server; it must have a device authorization endpoint.
    ///   - client: The client.
    ///   - scopes: The scopes to ask for.
    ///   - transport: Sends the request.
    ///   - clock: Gives the time, from which the expiry is computed.
    /// - Returns: The codes and where the user enters them.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` without an endpoint,
    ///   ``BearerError/Kind/invalidScope`` for a scope outside RFC 6749 §3.3; ``OAuthError`` or
    ///   ``BearerError`` when the server refuses or answers something else.
    package static func start(
        server: AuthorizationServer,
        client: Client,
        scopes: [String],
        using transport: some HTTPTransport,
        clock: WallClock = .system
    ) async throws -> DeviceAuthorization {
        guard let endpoint = server.deviceAuthorizationEndpoint else {
            throw BearerError.invalidConfiguration(
                "\(server.issuer.absoluteString) has no device authorization endpoint; sign in with a browser instead."
            )
        }
        try Scopes.check(scopes)
        var parameters: [FormParameter] = []
        if !scopes.isEmpty { parameters.append(FormParameter("scope", scopes.joined(separator: " "))) }
        let deviceEndpoint = OAuthEndpoint(
            url: endpoint,
            name: "device authorization endpoint",
            server: server,
            alwaysSendsClientID: true
        )
        let json = try await deviceEndpoint.post(parameters, as: client, using: transport, clock: clock)
        return try DeviceAuthorization(json: json, server: server, client: client, scopes: scopes, now: clock.now())
    }

    /// Reads a device authorization response (RFC 8628 §3.2).
    ///
    /// - Parameters:
    ///   - json: The response's JSON object.
    ///   - server: The server that answered.
    ///   - client: The client that asked.
    ///   - scopes: The scopes asked for.
    ///   - now: The time of receipt, from which the expiry is computed.
    /// - Throws: ``BearerError/Kind/invalidResponse`` when a required field is missing or the user
    ///   code has control characters; ``BearerError/Kind/insecureEndpoint`` when a verification
    ///   address is not https (or loopback http the server allows).
    package init(
        json: [String: JSONValue],
        server: AuthorizationServer,
        client: Client,
        scopes: [String],
        now: Date
    ) throws {
        guard let deviceCode = json["device_code"]?.stringValue, !deviceCode.isEmpty,
            let userCode = json["user_code"]?.stringValue, !userCode.isEmpty,
            let uriText = (json["verification_uri"] ?? json["verification_url"])?.stringValue,
            let verificationURI = URL(string: uriText),
            let expiresIn = json["expires_in"]?.numberValue, expiresIn.isFinite, expiresIn > 0
        else {
            throw BearerError.invalidResponse(
                "The device authorization response lacks device_code, user_code, verification_uri or expires_in "
                    + "(RFC 8628 §3.2)."
            )
        }
        guard !userCode.hasControlCharacters else {
            throw BearerError.invalidResponse(
                "The device authorization response has a user code with control characters.")
        }
        let verificationURIComplete = json["verification_uri_complete"]?.stringValue.flatMap(URL.init(string:))
        // The addresses are shown to the user and may be opened: never a plain-http or odd scheme.
        for address in [verificationURI] + (verificationURIComplete.map { [$0] } ?? []) {
            try server.checkSecure(address)
        }
        self.server = server
        self.client = client
        self.scopes = scopes
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresAt = now.addingTimeInterval(min(expiresIn, 86_400))
        let interval = json["interval"]?.numberValue ?? 5
        self.interval = interval.isFinite ? min(max(interval, 1), 60) : 5
    }

    /// Polls the token endpoint until the user approves (RFC 8628 §3.4, §3.5): waits `interval`
    /// between requests, adds 5 s on `slow_down`, and stops at the codes' expiry or `access_denied`.
    ///
    /// - Parameters:
    ///   - transport: Sends the requests.
    ///   - clock: Gives the time, and the skew allowed when checking an ID token.
    ///   - sleep: Waits between requests (injected so tests need not wait).
    ///   - progress: Told before each wait how long the code has left, and of each slow-down;
    ///     awaited before the wait begins.
    /// - Returns: The signed-in session.
    /// - Throws: ``OAuthError`` `access_denied` or `expired_token`; ``BearerError/Kind/timedOut``
    ///   when the codes expire; other errors of the token endpoint.
    package func waitForApproval(
        using transport: some HTTPTransport,
        clock: WallClock = .system,
        sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        progress: @Sendable (DeviceSignInProgress) async -> Void = { _ in }
    ) async throws -> AuthState {
        var interval = self.interval
        let request = TokenRequest(
            server: server,
            parameters: [FormParameter("grant_type", Self.grantType), FormParameter("device_code", deviceCode)],
            client: client
        )
        while true {
            let left = expiresAt.timeIntervalSince(clock.now())
            guard left > 0 else {
                throw BearerError.timedOut(
                    "The code \(userCode) expired before it was approved; run the sign-in again.")
            }
            await progress(.waiting(secondsLeft: left))
            try await sleep(.milliseconds(Int64(min(interval, left) * 1000)))
            do {
                let response = try await request.send(using: transport, clock: clock)
                do {
                    return try AuthState(
                        tokenResponse: response,
                        server: server,
                        client: client,
                        requestedScopes: scopes,
                        nonce: nil,
                        clock: clock
                    )
                } catch {
                    // A grant refused here is revoked, best effort, rather than left valid.
                    _ = await AuthState(unchecked: response, server: server, client: client)
                        .revokingEveryToken(using: transport, clock: clock)
                    throw error
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

extension DeviceAuthorization: RedactedDescription {
    /// The user code and verification URI; never the device code.
    package var description: String {
        "DeviceAuthorization(userCode: \(userCode), verificationURI: \(verificationURI.absoluteString), "
            + "deviceCode: <redacted>)"
    }
}
