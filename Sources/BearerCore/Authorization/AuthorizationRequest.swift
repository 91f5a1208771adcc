#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// An authorization-code request with PKCE (RFC 6749 §4.1.1, RFC 7636 §4.3), ready to open in a browser.
///
/// ``AuthSession`` builds it and hands it to an ``AuthorizationAgent``, which shows ``url`` and
/// gives back the redirect to ``redirectURI``; the session checks the redirect against it
/// (`state`, `iss`) and exchanges the code with its PKCE verifier, which never leaves the request.
public struct AuthorizationRequest: Sendable, Hashable {
    /// The parameters Bearer sets itself; extra parameters can never replace them.
    public static let standardParameterNames: Set<String> = [
        "client_id", "redirect_uri", "response_type", "scope", "state", "nonce", "code_challenge",
        "code_challenge_method", "request_uri", "request",
    ]

    /// The server the request goes to.
    public let server: AuthorizationServer
    /// The client making the request.
    public let client: Client
    /// The redirect URI sent in this request (the client's, unless a loopback port was added).
    public let redirectURI: URL
    /// The requested scopes, in order, without duplicates.
    public let scopes: [String]
    /// The `state` value: 256 random bits, base64url (RFC 6749 §10.12).
    public let state: String
    /// The OpenID Connect `nonce`, sent when `openid` is among the scopes (OIDC Core §3.1.2.1).
    public let nonce: String?
    /// The PKCE verifier and challenge.
    let pkce: PKCE
    /// Extra query parameters (`login_hint`, `prompt`, `include_granted_scopes`, `access_type`, …).
    public let additionalParameters: [String: String]
    /// The server's reference to this request once it was pushed (RFC 9126), which ``url`` then
    /// carries instead of the parameters.
    var pushed: PushedAuthorization?
    /// This request as a signed request object (RFC 9101), when it is sent as one: what is pushed,
    /// or what ``url`` carries when the request is not pushed.
    var requestObject: String?
    /// The provider's logout page, when this request ends the user's session there (OpenID
    /// Connect RP-Initiated Logout 1.0 §2) instead of starting a sign-in: ``url`` is that page, and
    /// the redirect to ``redirectURI`` carries only ``state``. See ``ProviderLogoutRequest``.
    var endSessionPage: URL?

    /// Whether this request ends the user's session at the provider (RP-Initiated Logout 1.0)
    /// rather than starting a sign-in: its ``url`` is the provider's logout page, which holds the
    /// ID token as `id_token_hint`, and the redirect back carries only ``state``. An agent shows it
    /// like any other request; one that logs or prints the page's address leaves the hint out.
    public var endsProviderSession: Bool { endSessionPage != nil }

    /// Creates a request with fresh `state`, `nonce` and PKCE verifier from the system's secure
    /// generator: what ``AuthSession`` shows an ``AuthorizationAgent``, and what a test of a custom
    /// agent hands it.
    ///
    /// ```swift
    /// let request = try AuthorizationRequest(server: server, client: client, scopes: ["openid"])
    /// let redirect = try await MyAgent().present(request)
    /// ```
    ///
    /// - Parameters:
    ///   - server: The authorization server.
    ///   - client: The client.
    ///   - scopes: The scopes to request.
    ///   - redirectURI: The redirect URI to send, when it differs from the client's registered one
    ///     (a loopback redirect with the listener's port, RFC 8252 §7.3).
    ///   - additionalParameters: Extra parameters; they cannot replace ``standardParameterNames``.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when neither `redirectURI` nor the client
    ///   has a redirect URI, or when an extra parameter names a standard one, ``BearerError/Kind/invalidScope`` for a scope outside RFC 6749 §3.3, or
    ///   ``BearerError/Kind/insecureEndpoint`` when the authorization endpoint is not https.
    public init(
        server: AuthorizationServer,
        client: Client,
        scopes: [String],
        redirectURI: URL? = nil,
        additionalParameters: [String: String] = [:]
    ) throws {
        var generator = SystemRandomNumberGenerator()
        try self.init(
            server: server,
            client: client,
            scopes: scopes,
            redirectURI: redirectURI,
            additionalParameters: additionalParameters,
            using: &generator
        )
    }

    /// Creates a request whose random values come from `generator`, which must be cryptographically
    /// secure outside tests.
    ///
    /// - Parameters:
    ///   - server: The authorization server.
    ///   - client: The client.
    ///   - scopes: The scopes to request.
    ///   - redirectURI: The redirect URI to send, when it differs from the client's registered one.
    ///   - additionalParameters: Extra parameters; they cannot replace ``standardParameterNames``.
    ///   - generator: The source of randomness for `state`, `nonce` and the PKCE verifier.
    /// - Throws: ``BearerError/Kind/invalidConfiguration``, ``BearerError/Kind/invalidScope`` or
    ///   ``BearerError/Kind/insecureEndpoint``.
    init(
        server: AuthorizationServer,
        client: Client,
        scopes: [String],
        redirectURI: URL? = nil,
        additionalParameters: [String: String] = [:],
        using generator: inout some RandomNumberGenerator
    ) throws {
        try Self.check(server: server, scopes: scopes, additionalParameters: additionalParameters)
        guard let redirectURI = redirectURI ?? client.redirectURI else {
            throw BearerError.invalidConfiguration(
                "The client \(client.id) has no redirect URI and the agent brings none; give the client the "
                    + "redirect URI registered for it, or sign in with LoopbackAgent."
            )
        }
        self.server = server
        self.client = client
        self.redirectURI = redirectURI
        self.scopes = Scopes.deduplicated(scopes)
        self.state = Self.randomToken(using: &generator)
        self.nonce = scopes.contains("openid") ? Self.randomToken(using: &generator) : nil
        self.pkce = PKCE(using: &generator)
        self.additionalParameters = additionalParameters
    }

    /// The same request with new `state`, `nonce` and PKCE verifier, neither signed nor pushed:
    /// what is pushed again when this one's reference expired.
    func renewed() throws -> AuthorizationRequest {
        try AuthorizationRequest(
            server: server, client: client, scopes: scopes, redirectURI: redirectURI,
            additionalParameters: additionalParameters)
    }

    /// The checks of a request, made when it is created and when it is decoded.
    static func check(server: AuthorizationServer, scopes: [String], additionalParameters: [String: String]) throws {
        try server.checkSecure(server.authorizationEndpoint)
        if let overriding = additionalParameters.keys.sorted().first(where: Self.standardParameterNames.contains) {
            throw BearerError.invalidConfiguration(
                "The extra parameter \"\(overriding)\" would replace one that Bearer sets itself; remove it."
            )
        }
        try Scopes.check(scopes)
    }

    /// The parameters Bearer adds to the endpoint's query, in the order it adds them.
    public var queryParameters: [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = [
            ("response_type", "code"),
            ("client_id", client.id),
            ("redirect_uri", redirectURI.absoluteString),
        ]
        if !scopes.isEmpty { parameters.append(("scope", scopes.joined(separator: " "))) }
        parameters.append(("state", state))
        if let nonce { parameters.append(("nonce", nonce)) }
        parameters.append(("code_challenge", pkce.challenge))
        parameters.append(("code_challenge_method", PKCE.challengeMethod))
        for name in additionalParameters.keys.sorted() {
            if let value = additionalParameters[name] { parameters.append((name, value)) }
        }
        return parameters
    }

    /// The URL to open in the browser: the authorization endpoint, with any query it already has
    /// (less parameters Bearer sets itself), followed by ``queryParameters``; for a request pushed
    /// to the server first (RFC 9126 §4), by `client_id` and the server's `request_uri` alone; for
    /// a signed request object (RFC 9101 §5) not pushed, by `response_type`, `client_id`, `scope`
    /// and `request`.
    public var url: URL {
        if let endSessionPage { return endSessionPage }
        let parameters: [(name: String, value: String)]
        if let pushed {
            parameters = [("client_id", client.id), ("request_uri", pushed.requestURI)]
        } else if let requestObject {
            // OpenID Connect Core §6.1 wants response_type and scope outside the object too.
            parameters =
                [("response_type", "code"), ("client_id", client.id)]
                + (scopes.isEmpty ? [] : [("scope", scopes.joined(separator: " "))]) + [("request", requestObject)]
        } else {
            parameters = queryParameters
        }
        return FormEncoding.url(
            server.authorizationEndpoint, adding: parameters, replacing: Self.standardParameterNames)
            ?? server.authorizationEndpoint
    }

    private static func randomToken(using generator: inout some RandomNumberGenerator) -> String {
        Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}

extension AuthorizationRequest: RedactedDescription {
    /// The endpoint, client and scopes; never the PKCE verifier.
    public var description: String {
        "AuthorizationRequest(endpoint: \(server.authorizationEndpoint.absoluteString), client: \(client.id), "
            + "scopes: \(scopes.joined(separator: " ")), pkce: \(pkce)\(requestObject == nil ? "" : ", signed")"
            + "\(pushed == nil ? "" : ", pushed"))"
    }
}
