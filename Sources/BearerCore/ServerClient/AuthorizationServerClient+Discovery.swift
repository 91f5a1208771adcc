#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

// A server's metadata: OpenID Connect Discovery and RFC 8414.
extension AuthorizationServerClient {
    /// Fetches a server's metadata: OpenID Connect Discovery
    /// (`{issuer}/.well-known/openid-configuration`) first, then RFC 8414
    /// (`/.well-known/oauth-authorization-server{issuer path}`) when the first is not found.
    ///
    /// - Parameters:
    ///   - issuer: The issuer identifier, e.g. `https://accounts.google.com`.
    ///   - allowingInsecureLoopback: Whether an http issuer on a loopback address is acceptable
    ///     (tests and local development only).
    /// - Returns: The server's configuration.
    /// - Throws: ``BearerError`` with kind ``BearerError/Kind/invalidDiscoveryDocument`` when no valid
    ///   document names this issuer, ``BearerError/Kind/insecureEndpoint`` for a non-https URL,
    ///   ``BearerError/Kind/network`` when the server cannot be reached.
    public func discover(issuer: URL, allowingInsecureLoopback: Bool = false) async throws -> AuthorizationServer {
        try await discover(issuer: issuer, allowingInsecureLoopback: allowingInsecureLoopback, order: .openIDFirst)
    }

    /// Fetches a server's metadata from the URLs of `order`, the first found being the one read.
    func discover(
        issuer: URL,
        allowingInsecureLoopback: Bool,
        order: AuthorizationServer.DiscoveryOrder
    ) async throws -> AuthorizationServer {
        try EndpointSecurity.check(issuer, allowingInsecureLoopback: allowingInsecureLoopback)
        var statuses: [String] = []
        for documentURL in try AuthorizationServer.metadataURLs(for: issuer, order: order) {
            let response = try await fetchMetadata(documentURL, allowingInsecureLoopback: allowingInsecureLoopback)
            if (200..<300).contains(response.status) {
                return try AuthorizationServer(
                    metadata: response.body,
                    expectedIssuer: issuer,
                    allowingInsecureLoopback: allowingInsecureLoopback
                )
            }
            statuses.append("\(documentURL.absoluteString) answered HTTP \(response.status)")
        }
        throw BearerError.invalidDiscoveryDocument(
            "No metadata found for issuer \(issuer.absoluteString): \(statuses.joined(separator: "; ")). "
                + "Check the issuer URL, or configure the endpoints by hand."
        )
    }

    /// GETs a metadata document at `url`. Redirects are not followed: one to a URL that is not
    /// https (or allowed loopback http) is ``BearerError/Kind/insecureEndpoint``, any other is
    /// reported as that URL's answer, so a document is only ever read from where it was looked for.
    func fetchMetadata(_ url: URL, allowingInsecureLoopback: Bool) async throws -> TransportResponse {
        let response = try await send(TransportRequest(url: url, headerFields: ["Accept": "application/json"]))
        if (300..<400).contains(response.status), let location = response.headerFields["Location"] {
            if let target = URL(string: location, relativeTo: url)?.absoluteURL {
                try EndpointSecurity.check(target, allowingInsecureLoopback: allowingInsecureLoopback)
            }
        }
        return response
    }
}
