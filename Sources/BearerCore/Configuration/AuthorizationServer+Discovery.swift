#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension AuthorizationServer {
    /// Reads a metadata document (OpenID Connect Discovery §3, RFC 8414 §2).
    ///
    /// The issuer and the authorization and token endpoints are required, and must be https (or
    /// allowed loopback http). An optional endpoint (revocation, device authorization, UserInfo)
    /// that is not such a URL is left out, so the rest of the server can still be used; what needs
    /// it then fails saying the server has none.
    ///
    /// - Parameters:
    ///   - metadata: The JSON document.
    ///   - expectedIssuer: The issuer the document must name, exactly (RFC 8414 §3.3).
    ///   - allowingInsecureLoopback: Whether http endpoints on a loopback address are acceptable.
    /// - Throws: ``BearerError`` with kind ``BearerError/Kind/invalidDiscoveryDocument``,
    ///   ``BearerError/Kind/issuerMismatch`` or ``BearerError/Kind/insecureEndpoint``.
    public init(metadata: Data, expectedIssuer: URL, allowingInsecureLoopback: Bool = false) throws {
        guard let document = try? JSONDecoder().decodeRefusingDeepNesting([String: JSONValue].self, from: metadata)
        else {
            throw BearerError.invalidDiscoveryDocument("The server metadata is not a JSON object.")
        }
        guard let issuer = document["issuer"]?.stringValue else {
            throw BearerError.invalidDiscoveryDocument("The server metadata has no \"issuer\".")
        }
        guard issuer == expectedIssuer.absoluteString, let issuerURL = URL(string: issuer) else {
            throw BearerError.issuerMismatch(
                "The metadata names issuer \(issuer), not \(expectedIssuer.absoluteString) (RFC 8414 §3.3). "
                    + "Use the issuer exactly as the server publishes it."
            )
        }
        func endpoint(_ name: String) throws -> URL {
            guard let value = document[name] else {
                throw BearerError.invalidDiscoveryDocument("The server metadata has no \"\(name)\".")
            }
            guard let text = value.stringValue, let url = URL(string: text), url.host != nil else {
                throw BearerError.invalidDiscoveryDocument("The server metadata's \"\(name)\" is not a URL.")
            }
            try EndpointSecurity.check(url, allowingInsecureLoopback: allowingInsecureLoopback)
            return url
        }
        // An optional endpoint that cannot be used is left out: the server works without it, and
        // what needs it fails then, saying the server has none.
        func optionalEndpoint(_ name: String) -> URL? {
            try? endpoint(name)
        }
        if case .array(let methods)? = document["code_challenge_methods_supported"],
            !methods.contains(.string(PKCE.challengeMethod))
        {
            throw BearerError.invalidDiscoveryDocument(
                "The server does not support PKCE with S256 (code_challenge_methods_supported), "
                    + "which Bearer requires (RFC 7636 §4.2)."
            )
        }
        self.init(
            issuer: issuerURL,
            authorizationEndpoint: try endpoint("authorization_endpoint"),
            tokenEndpoint: try endpoint("token_endpoint"),
            revocationEndpoint: optionalEndpoint("revocation_endpoint"),
            deviceAuthorizationEndpoint: optionalEndpoint("device_authorization_endpoint"),
            userinfoEndpoint: optionalEndpoint("userinfo_endpoint"),
            sendsIssuerInAuthorizationResponse: document["authorization_response_iss_parameter_supported"]?
                .boolValue ?? false,
            allowsInsecureLoopback: allowingInsecureLoopback,
            dpopSigningAlgorithms: Self.strings(document["dpop_signing_alg_values_supported"]),
            registrationEndpoint: optionalEndpoint("registration_endpoint"),
            scopesSupported: Self.strings(document["scopes_supported"]),
            acceptsClientIDMetadataDocuments: document["client_id_metadata_document_supported"]?.boolValue
        )
        // The keys ID tokens are checked against: one that cannot be fetched safely is an error, not
        // a reason to check no signature.
        jwksURI = document["jwks_uri"] == nil ? nil : try endpoint("jwks_uri")
        // An endpoint the request is to be pushed to is not left out when unusable: a sign-in
        // would then go through the browser, where this server meant it never to go.
        let pushedEndpointName = "pushed_authorization_request_endpoint"
        pushedAuthorizationRequestEndpoint =
            document[pushedEndpointName] == nil ? nil : try endpoint(pushedEndpointName)
        requiresPushedAuthorizationRequests = document["require_pushed_authorization_requests"]?.boolValue
        requiresSignedRequestObjects = document["require_signed_request_object"]?.boolValue
        requestObjectSigningAlgorithms = Self.strings(document["request_object_signing_alg_values_supported"])
        // Unusable, it is left out: signing out then ends the local session only, and says so.
        endSessionEndpoint = optionalEndpoint("end_session_endpoint")
    }

    /// The strings of a metadata array, or `nil` when it is absent or not an array.
    private static func strings(_ value: JSONValue?) -> [String]? {
        guard case .array(let values)? = value else { return nil }
        return values.compactMap(\.stringValue)
    }

    /// The order metadata URLs are tried in.
    enum DiscoveryOrder {
        /// OpenID Connect Discovery (`{issuer}/.well-known/openid-configuration`), then RFC 8414.
        case openIDFirst
        /// The Model Context Protocol authorization profile's: RFC 8414 with the issuer's path
        /// inserted, OpenID Connect with the path inserted, then OpenID Connect with the path
        /// appended (only the first two for an issuer without a path).
        case resourceProfile
    }

    /// The metadata URLs for an issuer, in the order to try them.
    static func metadataURLs(for issuer: URL, order: DiscoveryOrder = .openIDFirst) throws -> [URL] {
        guard var components = URLComponents(url: issuer, resolvingAgainstBaseURL: false) else {
            throw BearerError.invalidConfiguration("\(issuer.absoluteString) is not a valid issuer URL.")
        }
        guard components.query == nil, components.fragment == nil else {
            throw BearerError.invalidConfiguration(
                "An issuer URL has no query or fragment (RFC 8414 §2); remove them from \(issuer.absoluteString)."
            )
        }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        if order == .resourceProfile {
            let paths =
                ["/.well-known/oauth-authorization-server" + path, "/.well-known/openid-configuration" + path]
                + (path.isEmpty ? [] : [path + "/.well-known/openid-configuration"])
            return try paths.map { wellKnown in
                components.percentEncodedPath = wellKnown
                guard let url = components.url else {
                    throw BearerError.invalidConfiguration("\(issuer.absoluteString) is not a valid issuer URL.")
                }
                return url
            }
        }
        components.percentEncodedPath = path + "/.well-known/openid-configuration"
        let openID = components.url
        components.percentEncodedPath = "/.well-known/oauth-authorization-server" + path
        let oauth = components.url
        guard let openID, let oauth else {
            throw BearerError.invalidConfiguration("\(issuer.absoluteString) is not a valid issuer URL.")
        }
        return [openID, oauth]
    }
}
