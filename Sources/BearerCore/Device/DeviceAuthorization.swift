#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The device authorization grant (RFC 8628), for tools on machines without a browser: the user
/// opens a URL on another device and types a short code, while the tool polls for the tokens.
///
/// ``AuthorizationServerClient`` asks for the codes and polls; this value holds what the server
/// issued.
struct DeviceAuthorization: Sendable, Hashable {
    /// The grant type of the polling requests (RFC 8628 §3.4).
    static let grantType = "urn:ietf:params:oauth:grant-type:device_code"

    /// The server.
    let server: AuthorizationServer
    /// The client.
    let client: Client
    /// The scopes asked for.
    let scopes: [String]
    /// The device code, a secret sent only to the token endpoint.
    let deviceCode: String
    /// The code the user types.
    let userCode: String
    /// Where the user goes.
    let verificationURI: URL
    /// A URL that carries the user code too, when the server gives one.
    let verificationURIComplete: URL?
    /// When the codes expire.
    let expiresAt: Date
    /// The polling interval the server asked for (5 s when it did not say).
    let interval: TimeInterval

    /// The endpoint and body of the request for codes at `server` (RFC 8628 §3.1).
    ///
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when the server has no device
    ///   authorization endpoint; ``BearerError/Kind/invalidScope`` for a scope outside RFC 6749 §3.3.
    static func request(at server: AuthorizationServer, scopes: [String]) throws -> (URL, [FormParameter]) {
        guard let endpoint = server.deviceAuthorizationEndpoint else {
            throw BearerError.invalidConfiguration(
                "\(server.issuer.absoluteString) has no device authorization endpoint; sign in with a browser instead."
            )
        }
        try Scopes.check(scopes)
        return (endpoint, scopes.isEmpty ? [] : [FormParameter("scope", scopes.joined(separator: " "))])
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
    init(
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

    /// The token request of each poll (RFC 8628 §3.4).
    var tokenRequest: TokenRequest {
        TokenRequest(
            server: server,
            parameters: [FormParameter("grant_type", Self.grantType), FormParameter("device_code", deviceCode)],
            client: client
        )
    }
}

extension DeviceAuthorization: RedactedDescription {
    /// The user code and verification URI; never the device code.
    var description: String {
        "DeviceAuthorization(userCode: \(userCode), verificationURI: \(verificationURI.absoluteString), "
            + "deviceCode: <redacted>)"
    }
}
