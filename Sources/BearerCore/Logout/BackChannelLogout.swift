#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Ends sessions when the user signs out at the provider, or an administrator ends their sessions
/// there: the receiving end of OpenID Connect Back-Channel Logout 1.0, for a server app that keeps
/// its users' sessions in a ``BackChannelLogoutStore``.
///
/// Register the URL that calls ``respond(to:)`` as the client's `backchannel_logout_uri`. The
/// provider posts a signed logout token there; it is checked against the provider's published
/// keys (the same checks as ID-token signatures: no `none`, no HMAC, no key of its own choosing),
/// then its claims (§2.6: `typ`, `iss`, `aud`, `iat`, a short `exp`, the `events` member, no
/// `nonce`; a `sid`, a `sub` or both), and each `jti` is accepted once. Every stored session it names then
/// needs a new sign-in (see ``BackChannelLogoutStore``).
///
/// ```swift
/// let logout = try BackChannelLogout(
///     server: server, clientIDs: ["my-service"], store: store,
///     verifier: PlatformSignatureVerifier(), transport: URLSessionTransport())
/// // In the app's POST route for its backchannel_logout_uri:
/// let answer = await logout.respond(
///     to: BackChannelLogout.Request(contentType: request.contentType, body: request.body))
/// // Send answer.status, answer.headerFields and answer.body back.
/// ```
public struct BackChannelLogout<Store: BackChannelLogoutStore>: Sendable {
    /// The provider whose logout tokens are accepted.
    public let server: AuthorizationServer
    /// The app's clients at that provider: a token's `aud` must name one, and only their sessions end.
    public let clientIDs: Set<String>
    /// Where the sessions are.
    public let store: Store
    private let verification: JWSVerification
    private let serverClient: AuthorizationServerClient
    private let keys = ServerKeyCache()
    private let clock: WallClock

    /// The largest request body read: a logout token is a few kilobytes.
    public static var maximumBodySize: Int { 64 << 10 }

    /// Creates the receiver.
    ///
    /// - Parameters:
    ///   - server: The provider; it must publish its keys (``AuthorizationServer/jwksURI``).
    ///   - clientIDs: The app's client IDs at that provider.
    ///   - store: Where the sessions are.
    ///   - verifier: Checks signatures: `PlatformSignatureVerifier()` from Bearer, or your own.
    ///   - algorithms: The signature algorithms accepted, from ``JWSAlgorithm/verifiable``.
    ///   - transport: Fetches the provider's keys.
    ///   - clock: The time, and the skew allowed for `iat` and `exp`.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when the provider publishes no keys, or
    ///   no client ID is given.
    public init(
        server: AuthorizationServer,
        clientIDs: Set<String>,
        store: Store,
        verifier: any JWSSignatureVerifier,
        algorithms: Set<JWSAlgorithm> = JWSAlgorithm.verifiable,
        transport: any HTTPTransport,
        clock: WallClock = .system
    ) throws {
        guard server.jwksURI != nil else {
            throw BearerError.invalidConfiguration(
                "\(server.issuer.absoluteString) publishes no keys (jwks_uri), so its logout tokens cannot be "
                    + "checked; configure the server's jwksURI, or discover it.")
        }
        guard !clientIDs.isEmpty, !clientIDs.contains("") else {
            throw BearerError.invalidConfiguration(
                "Back-channel logout needs the app's client IDs at the provider, none of them empty.")
        }
        self.server = server
        self.clientIDs = clientIDs
        self.store = store
        self.verification = JWSVerification(algorithms: algorithms, verifier: verifier)
        self.serverClient = AuthorizationServerClient(transport: transport, clock: clock)
        self.clock = clock
    }

    /// Checks a logout token: its signature against the provider's keys, then its claims. Nothing
    /// is changed and its `jti` is not recorded.
    ///
    /// - Parameter logoutToken: The compact JWS the provider posted.
    /// - Returns: The token's claims.
    /// - Throws: ``BearerError/Kind/invalidSignature`` or ``BearerError/Kind/invalidLogoutToken``
    ///   naming the failed check; the key set's fetch error.
    public func verify(_ logoutToken: String) async throws -> LogoutToken {
        let token = try CompactJWS(logoutToken)
        guard let jwksURI = server.jwksURI else {
            throw BearerError.invalidConfiguration("\(server.issuer.absoluteString) publishes no keys (jwks_uri).")
        }
        let (cache, server, serverClient, now) = (keys, server, serverClient, clock.now())
        _ = try await verification.check(token, what: "The logout token") { refetching in
            try await cache.keys(at: jwksURI, now: now, refetchingForUnknownKey: refetching) {
                try await serverClient.fetchKeySet(at: jwksURI, server: server)
            }
        }
        return try LogoutToken(
            claims: try token.payloadObject(), type: token.header.type, issuers: server.idTokenIssuers,
            clientIDs: clientIDs, clock: clock)
    }

    /// Checks a logout token and ends the sessions it names.
    ///
    /// - Parameter logoutToken: The compact JWS the provider posted.
    /// - Returns: How many sessions ended, or ``LogoutEnding/replayed`` for a `jti` accepted before.
    /// - Throws: What ``verify(_:)`` throws; the store's error.
    public func receive(_ logoutToken: String) async throws -> LogoutEnding {
        try await store.endSessions(namedBy: try await verify(logoutToken))
    }

    /// Answers the provider's POST to the app's `backchannel_logout_uri` (§2.5, §2.8): 200 when the
    /// token was accepted (whether or not a stored session matched), 400 with an OAuth error body
    /// when it was refused, replayed, or the sessions could not be ended; 405 for another method.
    /// Every answer carries `Cache-Control: no-store`. No token is ever part of an answer.
    ///
    /// - Parameter request: The request as it came.
    /// - Returns: The status, header fields and body to send back.
    public func respond(to request: Request) async -> Response {
        guard request.method.uppercased() == "POST" else {
            return Response(status: 405, headerFields: ["Allow": "POST"], error: nil)
        }
        let mediaType = request.contentType?.split(separator: ";").first.map { String($0).trimmingWhitespace() }
        guard mediaType?.lowercased() == "application/x-www-form-urlencoded" else {
            return .refusal("The logout request must be an application/x-www-form-urlencoded POST (§2.5).")
        }
        guard request.body.count <= Self.maximumBodySize else {
            return .refusal("The logout request is larger than \(Self.maximumBodySize) bytes.")
        }
        let tokens = FormEncoding.decodePairs(String(decoding: request.body, as: UTF8.self))
            .filter { $0.name == "logout_token" }
        guard tokens.count == 1, let logoutToken = tokens.first?.value else {
            return .refusal("The logout request must carry exactly one logout_token (§2.5).")
        }
        let token: LogoutToken
        do {
            token = try await verify(logoutToken)
        } catch let error as BearerError {
            return .refusal(error.reason)
        } catch {
            return .refusal("The logout token could not be checked.")
        }
        do {
            switch try await store.endSessions(namedBy: token) {
            case .ended:
                return Response(status: 200, headerFields: [:], error: nil)
            case .replayed:
                return .refusal("This logout token (jti) was received before; it is accepted once (§2.6).")
            }
        } catch {
            return Response(
                status: 400, headerFields: [:],
                error: ("temporarily_unavailable", "The sessions could not be ended; send the logout token again."))
        }
    }
}
