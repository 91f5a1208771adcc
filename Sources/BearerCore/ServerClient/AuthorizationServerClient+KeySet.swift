#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The server's published keys (RFC 7517 §5 at `jwks_uri`) and the ID-token signatures checked
// with them (OpenID Connect Core §3.1.3.7 step 6, §10.1).
extension AuthorizationServerClient {
    /// GETs the key set at `url`: https only (or allowed loopback http), no redirect followed, at
    /// most ``JSONWebKeySet/maximumSize`` bytes.
    ///
    /// - Throws: ``BearerError/Kind/insecureEndpoint`` for a URL or a redirect that is not https,
    ///   ``BearerError/Kind/invalidResponse`` for any other answer than 200 with a key set,
    ///   ``BearerError/Kind/network`` when the server cannot be reached.
    func fetchKeySet(at url: URL, server: AuthorizationServer) async throws -> ServerKeyCache.Fetched {
        try EndpointSecurity.check(url, allowingInsecureLoopback: server.allowsInsecureLoopback)
        let request = TransportRequest(url: url, headerFields: ["Accept": "application/jwk-set+json, application/json"])
        let response: TransportResponse
        do {
            response = try await transport.send(request, maximumBodySize: JSONWebKeySet.maximumSize)
        } catch let error as BearerError {
            throw error
        } catch {
            throw BearerError.reportingNoResponse(error, from: url.host)
        }
        if (300..<400).contains(response.status) {
            let target = response.headerFields["Location"].flatMap { URL(string: $0, relativeTo: url)?.absoluteURL }
            if let target {
                try EndpointSecurity.check(target, allowingInsecureLoopback: server.allowsInsecureLoopback)
            }
            throw BearerError.invalidResponse(
                "The server's key set at \(url.absoluteString) answered with a redirect (HTTP \(response.status)), "
                    + "which Bearer does not follow for keys; configure the jwks_uri the keys are served at.")
        }
        guard response.status == 200 else {
            throw BearerError.invalidResponse(
                "The server's key set at \(url.absoluteString) answered HTTP \(response.status); ID tokens cannot be "
                    + "checked until it serves its keys.")
        }
        return ServerKeyCache.Fetched(
            keys: try JSONWebKeySet(json: response.body),
            maximumAge: ServerKeyCache.maximumAge(cacheControl: response.headerFields["Cache-Control"]))
    }

    /// Checks the signature of `response`'s ID token, if any, against `server`'s keys, as
    /// `idTokenSignatures` asks.
    ///
    /// - Throws: ``BearerError/Kind/invalidSignature`` when the signature, its algorithm or its key
    ///   is refused; ``BearerError/Kind/invalidConfiguration`` when a check is required and cannot
    ///   be made; the key set's fetch error (``BearerError/Kind/network`` and others).
    func checkIDTokenSignature(of response: TokenResponse, from server: AuthorizationServer) async throws {
        guard let idToken = response.idToken, let settings = idTokenSignatures else { return }
        guard let verifier = settings.verifier else {
            guard settings.requirement == .required else { return }
            throw BearerError.invalidConfiguration(
                "ID-token signatures are required (IDTokenSignatureSettings.requirement) but no verifier is "
                    + "configured; configure PlatformSignatureVerifier() from Bearer, or your own.")
        }
        guard let jwksURI = server.jwksURI else {
            guard settings.requirement == .required else { return }
            throw BearerError.invalidSignature(
                "ID-token signatures are required, but \(server.issuer.absoluteString) publishes no keys (jwks_uri); "
                    + "the ID token was refused.")
        }
        let token = try CompactJWS(idToken.value)
        let cache = settings.keys
        let now = clock.now()
        _ = try await JWSVerification(algorithms: settings.algorithms, verifier: verifier).check(
            token, what: "The ID token"
        ) { refetching in
            try await cache.keys(at: jwksURI, now: now, refetchingForUnknownKey: refetching) {
                try await self.fetchKeySet(at: jwksURI, server: server)
            }
        }
    }
}
