#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension AuthSession {
    /// Where an ``AuthSession`` sends tokens, when it refreshes them, and how it reports errors.
    ///
    /// Whether plain-http loopback addresses may receive tokens is the server's setting,
    /// ``AuthorizationServer/allowsInsecureLoopback``; how far server clocks may be off is the
    /// clock's, ``WallClock/allowedSkew``.
    public struct Configuration: Sendable {
        /// The hosts tokens may be sent to, or `nil` for any https host. An entry is a host name
        /// (`www.example.com`) or a wildcard for its subdomains (`*.googleapis.com`, which does not
        /// match `googleapis.com` itself).
        public var allowedHosts: [String]?
        /// How long before expiry a token is refreshed (60 s by default); for short-lived tokens the
        /// smaller of this and half the token's lifetime is used (see ``AuthState/effectiveLeeway(_:)``).
        public var refreshLeeway: TimeInterval
        /// Extra body parameters for each refresh request, computed from the session being refreshed.
        public var additionalRefreshParameters: @Sendable (AuthState) -> [String: String]
        /// Rewrites every error a session method throws before the caller gets it (for example to
        /// map it to an app error).
        public var rewriteError: @Sendable (any Error) -> any Error
        /// When sign-ins bind their grants to a DPoP key (RFC 9449), where keys come from, and the
        /// nonces servers sent; ``DPoPSettings/Use/whenAdvertised`` with no key source by default.
        public var dpop: DPoPSettings
        /// How the signatures of ID tokens are checked against the server's keys;
        /// ``IDTokenSignatureSettings/Requirement/whenServerPublishesKeys`` with no verifier by
        /// default, which `import Bearer`'s entry points fill in with `PlatformSignatureVerifier()`.
        public var idTokenSignatures = IDTokenSignatureSettings()
        /// When sign-ins push their authorization requests to the server first (RFC 9126);
        /// ``PushedAuthorizationUse/whenAdvertised`` by default.
        public var pushedAuthorization = PushedAuthorizationUse.whenAdvertised
        /// When sign-ins send their authorization requests as signed request objects (RFC 9101),
        /// signed with the key from ``clientKeys``; ``RequestObjectUse/whenRequired`` by default.
        public var requestObjects = RequestObjectUse.whenRequired
        /// The keys of clients that authenticate with `private_key_jwt`
        /// (``ClientAuthentication/privateKeyJWT``); `nil` by default, which makes such a client's
        /// requests fail before they are sent.
        public var clientKeys: (any ClientKeySource)?
        /// The audience (`aud`) of the client assertions signed with ``clientKeys``:
        /// ``ClientAssertionAudience/issuer`` by default.
        public var clientAssertionAudience = ClientAssertionAudience.issuer
        /// The rules sign-ins, refreshes and requests are held to beyond what each setting says;
        /// ``SecurityProfile/standard`` by default. ``fapi2(clientKeys:)`` makes a configuration
        /// that keeps ``SecurityProfile/fapi2``'s.
        public var securityProfile = SecurityProfile.standard
        /// Told when a refresh request is sent and when its outcome is saved or it failed (the
        /// `bearer` tool holds back termination signals in between); `nil` by default.
        @_spi(CommandLine) public var refreshCriticalSection: (any RefreshCriticalSection)?

        /// Creates a configuration; the defaults send tokens to any https host, refresh 60 s before
        /// expiry, add nothing to refreshes and rewrite no error.
        ///
        /// - Parameters:
        ///   - allowedHosts: The hosts tokens may go to, or `nil` for any https host.
        ///   - refreshLeeway: How long before expiry to refresh.
        ///   - additionalRefreshParameters: Extra refresh parameters.
        ///   - rewriteError: Error rewriting.
        ///   - dpop: When sign-ins use DPoP, and where keys come from.
        public init(
            allowedHosts: [String]? = nil,
            refreshLeeway: TimeInterval = AuthState.defaultRefreshLeeway,
            additionalRefreshParameters: @escaping @Sendable (AuthState) -> [String: String] = { _ in [:] },
            rewriteError: @escaping @Sendable (any Error) -> any Error = { $0 },
            dpop: DPoPSettings = DPoPSettings()
        ) {
            self.dpop = dpop
            self.allowedHosts = allowedHosts
            self.refreshLeeway = refreshLeeway
            self.additionalRefreshParameters = additionalRefreshParameters
            self.rewriteError = rewriteError
        }

        /// A configuration that keeps the FAPI 2.0 Security Profile's client rules
        /// (``SecurityProfile/fapi2``): every request pushed, tokens bound to a DPoP key with no
        /// fallback, the client authenticated with `private_key_jwt` by `clientKeys`, and every
        /// ID token's signature checked, PS256 or ES256 only. `import Bearer`'s entry points fill in
        /// the platform's DPoP keys and signature verifier, as for any configuration.
        ///
        /// ```swift
        /// let configuration = AuthSession.Configuration.fapi2(clientKeys: StaticClientKey(clientKey))
        /// ```
        ///
        /// - Parameter clientKeys: The key the client registered for `private_key_jwt`.
        /// - Returns: The configuration.
        public static func fapi2(clientKeys: any ClientKeySource) -> Configuration {
            var configuration = Configuration(dpop: DPoPSettings(use: .required))
            configuration.securityProfile = .fapi2
            configuration.pushedAuthorization = .required
            configuration.clientKeys = clientKeys
            configuration.idTokenSignatures = IDTokenSignatureSettings(
                requirement: .required, algorithms: SecurityProfile.fapi2Algorithms)
            return configuration
        }

        /// Google APIs: tokens go only to `*.googleapis.com`.
        public static var google: Configuration { Configuration(allowedHosts: ["*.googleapis.com"]) }

        /// The configuration used when none is given: ``google`` for Google's server, the defaults
        /// otherwise.
        ///
        /// - Parameter server: The session's server.
        /// - Returns: The configuration.
        public static func recommended(for server: AuthorizationServer) -> Configuration {
            server.isGoogle ? .google : Configuration()
        }
    }
}

extension AuthSession.Configuration {
    /// `configuration`, else the one recommended for `server`, with `platform`'s DPoP key source and
    /// signature verifier where it has none: how `import Bearer`'s entry points give sessions the
    /// platform's cryptography.
    @_spi(Bridge) public static func resolved(
        _ configuration: Self?,
        for server: AuthorizationServer,
        platform: PlatformCryptography?
    ) -> Self {
        var resolved = configuration ?? .recommended(for: server)
        if resolved.dpop.keys == nil { resolved.dpop.keys = platform?.dpopKeys }
        if resolved.idTokenSignatures.verifier == nil {
            resolved.idTokenSignatures.verifier = platform?.signatureVerifier
        }
        return resolved
    }
}

/// The platform's cryptography, which BearerCore does not link: `import Bearer` gives CryptoKit's
/// and the Security framework's on Apple platforms, OpenSSL's libcrypto's on Linux.
@_spi(Bridge) public struct PlatformCryptography: Sendable {
    /// Makes and rebuilds DPoP keys.
    @_spi(Bridge) public var dpopKeys: (any DPoPKeySource)?
    /// Checks signatures of servers' tokens.
    @_spi(Bridge) public var signatureVerifier: (any JWSSignatureVerifier)?

    /// Creates the bundle.
    @_spi(Bridge) public init(dpopKeys: (any DPoPKeySource)?, signatureVerifier: (any JWSSignatureVerifier)?) {
        self.dpopKeys = dpopKeys
        self.signatureVerifier = signatureVerifier
    }
}
