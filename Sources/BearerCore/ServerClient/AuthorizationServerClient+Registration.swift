#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Getting a client at a server found through a resource: configured, a Client ID Metadata
// Document, or dynamic registration (RFC 7591).
extension AuthorizationServerClient {
    /// The client `identity` uses at `server` with `redirectURI`, in the profile's order: the
    /// app's configured client; its Client ID Metadata Document where the server reads them;
    /// else the client registered before (`registered`) when it still fits; else a new
    /// registration.
    ///
    /// - Returns: The client, and whether it is a new registration to keep.
    /// - Throws: ``BearerError/Kind/registrationFailed`` when no client can be had;
    ///   ``BearerError/Kind/insecureEndpoint`` for a metadata document URL that is not https.
    func client(
        of identity: ClientIdentity,
        at server: AuthorizationServer,
        redirectURI: URL,
        registered: Client?
    ) async throws -> (client: Client, isNewRegistration: Bool) {
        if var configured = identity.configuredClient(at: server) {
            if configured.redirectURI == nil { configured.redirectURI = redirectURI }
            return (configured, false)
        }
        if let document = identity.metadataDocument, server.acceptsClientIDMetadataDocuments == true {
            try EndpointSecurity.check(document, allowingInsecureLoopback: server.allowsInsecureLoopback)
            guard !document.path.isEmpty, document.path != "/" else {
                throw BearerError.invalidConfiguration(
                    "A Client ID Metadata Document URL needs a path; \(document.forMessages) has none.")
            }
            return (Client(id: document.absoluteString, redirectURI: redirectURI), false)
        }
        if let registered, registered.redirectURI == redirectURI,
            registered.secretExpiresAt.map({ $0 > clock.now().addingTimeInterval(60) }) ?? true
        {
            return (registered, false)
        }
        return (try await register(identity.name, redirectURI: redirectURI, at: server), true)
    }

    /// Registers a native client named `name` with `redirectURI` at `server` (RFC 7591): a public
    /// client, or where ``clientKeys`` is configured, a `private_key_jwt` client whose `jwks` is
    /// the public half of the key the source gives.
    ///
    /// - Throws: ``BearerError/Kind/registrationFailed`` when the server takes no registrations,
    ///   refuses this one, or answers without a usable client; the key source's error when it has no key.
    func register(_ name: String, redirectURI: URL, at server: AuthorizationServer) async throws -> Client {
        guard let endpoint = server.registrationEndpoint else {
            throw BearerError.registrationFailed(
                "\(server.issuer.forMessages) takes no client registrations (its metadata has no "
                    + "registration_endpoint) and the app configured no client for it; register one with the "
                    + "server's administrator and pass it in the ClientIdentity's clients.")
        }
        try EndpointSecurity.check(endpoint, allowingInsecureLoopback: server.allowsInsecureLoopback)
        // The client has no ID before it is registered: the source is asked with an empty one.
        let assertionKey = try await clientKeys?.key(
            for: Client(id: "", redirectURI: redirectURI, authentication: .privateKeyJWT), at: server
        ).record.publicKey
        let request = TransportRequest(
            method: .post, url: endpoint,
            headerFields: ["Content-Type": "application/json", "Accept": "application/json"],
            body: try ClientRegistration.body(name: name, redirectURI: redirectURI, assertionKey: assertionKey))
        let response = try await send(request)
        do {
            _ = try Self.jsonObject(from: response, endpointName: "registration endpoint", now: clock.now())
        } catch let refusal as OAuthError {
            throw BearerError.registrationFailed(
                "\(server.issuer.forMessages) refused the client registration: \(refusal.code.rawValue)"
                    + (refusal.errorDescription.map { " (\($0.prefix(200)))" } ?? "") + ".",
                underlyingError: refusal)
        } catch let unreadable as BearerError
            where unreadable.kind == .invalidResponse && (200..<300).contains(response.status)
        {
            // A success whose body is not a JSON object holds no client (RFC 7591 §3.2.1).
            throw BearerError.registrationFailed(unreadable.reason, underlyingError: unreadable)
        }
        return try ClientRegistration.client(
            from: response.body, redirectURI: redirectURI, askedForAssertions: assertionKey != nil)
    }
}
