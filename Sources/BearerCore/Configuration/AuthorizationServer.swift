#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Where an OAuth 2.0 authorization server receives requests (RFC 8414 §2).
///
/// Use ``google`` for Google, ``AuthorizationServerClient/discover(issuer:allowingInsecureLoopback:)`` for a server that
/// publishes metadata, or the initializer for one configured by hand.
public struct AuthorizationServer: Sendable, Hashable, Codable {
    /// The issuer identifier (RFC 8414 §2); also the expected `iss` of redirects and ID tokens.
    public var issuer: URL
    /// The authorization endpoint (RFC 6749 §3.1).
    public var authorizationEndpoint: URL
    /// The token endpoint (RFC 6749 §3.2).
    public var tokenEndpoint: URL
    /// The token revocation endpoint (RFC 7009 §2), if the server has one.
    public var revocationEndpoint: URL?
    /// The device authorization endpoint (RFC 8628 §4), if the server has one.
    public var deviceAuthorizationEndpoint: URL?
    /// The OpenID Connect UserInfo endpoint (OpenID Connect Core §5.3), if the server has one.
    public var userinfoEndpoint: URL?
    /// Whether the server promises an `iss` parameter in every authorization response (RFC 9207 §3).
    /// When `true`, a redirect without `iss` is rejected.
    public var sendsIssuerInAuthorizationResponse: Bool
    /// Whether plain-http endpoints on a loopback address (127.0.0.0/8, `::1`, `localhost`) are
    /// allowed, for tests and local development. Other http endpoints are always refused.
    public var allowsInsecureLoopback: Bool
    /// The DPoP proof algorithms the server accepts (`dpop_signing_alg_values_supported`, RFC 9449
    /// §5.1), or `nil` when its metadata does not say. A sign-in uses DPoP by default where this
    /// holds `ES256` (see ``DPoPSettings``).
    public var dpopSigningAlgorithms: [String]?
    /// Where clients register themselves (RFC 7591 §3), when the server takes registrations.
    public var registrationEndpoint: URL?
    /// The scopes the server says it issues (`scopes_supported`), when it says.
    public var scopesSupported: [String]?
    /// Whether the server reads a client's metadata from the https URL it uses as its client ID
    /// (`client_id_metadata_document_supported`); `nil` when the metadata does not say.
    public var acceptsClientIDMetadataDocuments: Bool?
    /// Where the server publishes the keys its ID tokens are signed with (`jwks_uri`, RFC 8414 §2,
    /// OpenID Connect Discovery §3), or `nil` when it publishes none; https only.
    public var jwksURI: URL? = nil
    /// Where the server takes pushed authorization requests (`pushed_authorization_request_endpoint`,
    /// RFC 9126 §5), or `nil` when it takes none; sign-ins push there by default (see
    /// ``PushedAuthorizationUse``).
    public var pushedAuthorizationRequestEndpoint: URL? = nil
    /// Whether the server accepts authorization requests only when pushed first
    /// (`require_pushed_authorization_requests`, RFC 9126 §5); `nil` when its metadata does not say.
    public var requiresPushedAuthorizationRequests: Bool? = nil
    /// Whether the server accepts authorization requests only as signed request objects
    /// (`require_signed_request_object`, RFC 9101 §10.5); `nil` when its metadata does not say.
    /// Sign-ins then sign them (see ``RequestObjectUse``).
    public var requiresSignedRequestObjects: Bool? = nil
    /// The algorithms the server accepts request objects signed with
    /// (`request_object_signing_alg_values_supported`, OpenID Connect Discovery §3), or `nil` when
    /// its metadata does not say.
    public var requestObjectSigningAlgorithms: [String]? = nil
    /// Where the provider ends the user's session when the app signs out
    /// (`end_session_endpoint`, OpenID Connect RP-Initiated Logout 1.0 §2.1), or `nil` when it
    /// offers none; see ``AuthSession/disconnect(endingProviderSessionWith:postLogoutRedirectURI:)``.
    public var endSessionEndpoint: URL? = nil

    /// Creates a server configuration.
    ///
    /// - Parameters:
    ///   - issuer: The issuer identifier.
    ///   - authorizationEndpoint: The authorization endpoint.
    ///   - tokenEndpoint: The token endpoint.
    ///   - revocationEndpoint: The revocation endpoint, if any.
    ///   - deviceAuthorizationEndpoint: The device authorization endpoint, if any.
    ///   - userinfoEndpoint: The UserInfo endpoint, if any.
    ///   - sendsIssuerInAuthorizationResponse: Whether redirects always carry `iss` (RFC 9207).
    ///   - allowsInsecureLoopback: Whether http endpoints on loopback addresses are allowed.
    ///   - dpopSigningAlgorithms: The DPoP proof algorithms the server accepts, if it says.
    ///   - registrationEndpoint: The dynamic client registration endpoint, if any.
    ///   - scopesSupported: The scopes the server issues, if it says.
    ///   - acceptsClientIDMetadataDocuments: Whether it reads client ID metadata documents, if it says.
    public init(
        issuer: URL,
        authorizationEndpoint: URL,
        tokenEndpoint: URL,
        revocationEndpoint: URL? = nil,
        deviceAuthorizationEndpoint: URL? = nil,
        userinfoEndpoint: URL? = nil,
        sendsIssuerInAuthorizationResponse: Bool = false,
        allowsInsecureLoopback: Bool = false,
        dpopSigningAlgorithms: [String]? = nil,
        registrationEndpoint: URL? = nil,
        scopesSupported: [String]? = nil,
        acceptsClientIDMetadataDocuments: Bool? = nil
    ) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.userinfoEndpoint = userinfoEndpoint
        self.sendsIssuerInAuthorizationResponse = sendsIssuerInAuthorizationResponse
        self.allowsInsecureLoopback = allowsInsecureLoopback
        self.dpopSigningAlgorithms = dpopSigningAlgorithms
        self.registrationEndpoint = registrationEndpoint
        self.scopesSupported = scopesSupported
        self.acceptsClientIDMetadataDocuments = acceptsClientIDMetadataDocuments
    }

    /// Checks that `url` may carry credentials to this server: https, or http on a loopback
    /// address when ``allowsInsecureLoopback`` is set.
    ///
    /// - Parameter url: An endpoint URL.
    /// - Throws: ``BearerError/Kind/insecureEndpoint`` otherwise.
    @_spi(CommandLine) public func checkSecure(_ url: URL) throws {
        try EndpointSecurity.check(url, allowingInsecureLoopback: allowsInsecureLoopback)
    }
}

extension AuthorizationServer {
    /// Google's OAuth 2.0 and OpenID Connect endpoints, as published at
    /// `https://accounts.google.com/.well-known/openid-configuration`.
    public static let google = AuthorizationServer(
        issuer: URL(knownValid: "https://accounts.google.com"),
        authorizationEndpoint: URL(knownValid: "https://accounts.google.com/o/oauth2/v2/auth"),
        tokenEndpoint: URL(knownValid: "https://oauth2.googleapis.com/token"),
        revocationEndpoint: URL(knownValid: "https://oauth2.googleapis.com/revoke"),
        deviceAuthorizationEndpoint: URL(knownValid: "https://oauth2.googleapis.com/device/code"),
        userinfoEndpoint: URL(knownValid: "https://openidconnect.googleapis.com/v1/userinfo")
    ).publishingKeys(at: URL(knownValid: "https://www.googleapis.com/oauth2/v3/certs"))

    /// This server, publishing its keys at `url`.
    func publishingKeys(at url: URL) -> AuthorizationServer {
        var server = self
        server.jwksURI = url
        return server
    }
}

extension URL {
    /// Creates a URL from a literal that is known to be valid.
    init(knownValid string: StaticString) {
        guard let url = URL(string: "\(string)") else {
            preconditionFailure("Invalid URL literal \(string)")
        }
        self = url
    }
}
