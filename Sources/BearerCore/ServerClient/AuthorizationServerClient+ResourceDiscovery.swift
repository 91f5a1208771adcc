#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Finding a protected resource's authorization server: RFC 9728, then RFC 8414 in the Model
// Context Protocol authorization profile's order.
extension AuthorizationServerClient {
    /// Reads a protected resource's metadata (RFC 9728): from the `resource_metadata` of
    /// `challenge` when given, else from `/.well-known/oauth-protected-resource` with the
    /// resource's path, then at the root.
    ///
    /// ```swift
    /// let client = AuthorizationServerClient(transport: transport)
    /// let metadata = try await client.discover(resource: resource)
    /// let server = try await client.discoverAuthorizationServer(of: metadata)
    /// ```
    ///
    /// - Parameters:
    ///   - resource: The resource.
    ///   - challenge: The `WWW-Authenticate` challenge of the resource's `401`, if there was one.
    ///   - allowingInsecureLoopback: Whether http on a loopback address is acceptable.
    /// - Returns: The metadata, which describes `resource`.
    /// A challenge's `resource_metadata` that is not https (or allowed loopback http) is not
    /// fetched, and an answer that is not a metadata document is passed over for the next URL.
    ///
    /// - Throws: ``BearerError/Kind/resourceMismatch`` for a document about another resource;
    ///   ``BearerError/Kind/invalidDiscoveryDocument`` when no URL holds a usable document;
    ///   ``BearerError/Kind/insecureEndpoint`` for a redirect to a URL that is not https.
    public func discover(
        resource: ProtectedResource,
        challenge: BearerChallenge? = nil,
        allowingInsecureLoopback: Bool = false
    ) async throws -> ProtectedResourceMetadata {
        var candidates = resource.metadataURLs
        var statuses: [String] = []
        if let named = challenge?.resourceMetadata {
            // A challenge's URL that is not https (or allowed loopback http) is not fetched; the
            // resource's own well-known URLs are tried instead.
            do {
                try EndpointSecurity.check(named, allowingInsecureLoopback: allowingInsecureLoopback)
                candidates.insert(named, at: 0)
            } catch let refusal as BearerError {
                statuses.append("the challenge's resource_metadata was not used: \(refusal.reason)")
            }
        }
        for url in candidates {
            let response = try await fetchMetadata(url, allowingInsecureLoopback: allowingInsecureLoopback)
            guard (200..<300).contains(response.status) else {
                statuses.append("\(url.forMessages) answered HTTP \(response.status)")
                continue
            }
            do {
                return try ProtectedResourceMetadata(
                    document: response.body, describing: resource, allowingInsecureLoopback: allowingInsecureLoopback)
            } catch let unusable as BearerError where unusable.kind == .invalidDiscoveryDocument {
                // Not a metadata document (a catch-all page, say): the next URL may hold one. A
                // document about another resource is never passed over this way.
                statuses.append("\(url.forMessages): \(unusable.reason)")
            }
        }
        throw BearerError.invalidDiscoveryDocument(
            "No protected resource metadata found for \(resource) (RFC 9728): \(statuses.joined(separator: "; ")). "
                + "Check the resource URL.")
    }

    /// Discovers the first authorization server `metadata` names, in the profile's order: RFC 8414
    /// and OpenID Connect with the issuer's path inserted, then OpenID Connect with it appended.
    /// The document must name that issuer exactly (RFC 8414 §3.3).
    ///
    /// - Parameters:
    ///   - metadata: The resource's metadata.
    ///   - allowingInsecureLoopback: Whether http on a loopback address is acceptable.
    /// - Returns: The server.
    /// - Throws: ``BearerError/Kind/issuerMismatch`` for a document naming another issuer;
    ///   ``BearerError/Kind/invalidDiscoveryDocument`` when none is found.
    public func discoverAuthorizationServer(
        of metadata: ProtectedResourceMetadata,
        allowingInsecureLoopback: Bool = false
    ) async throws -> AuthorizationServer {
        guard let issuer = metadata.authorizationServers.first else {
            throw BearerError.invalidDiscoveryDocument("\(metadata.resource) names no authorization server.")
        }
        return try await discover(
            issuer: issuer, allowingInsecureLoopback: allowingInsecureLoopback, order: .resourceProfile)
    }

    /// Asks `resource` without a token, for the challenge of its `401` (RFC 9728 §5.1); `nil`
    /// when it answers otherwise or has no Bearer challenge.
    func challenge(of resource: ProtectedResource) async throws -> BearerChallenge? {
        let response = try await send(TransportRequest(url: resource.identifier))
        guard response.status == 401, let header = response.headerFields["WWW-Authenticate"] else { return nil }
        return BearerChallenge(header: header)
    }
}
