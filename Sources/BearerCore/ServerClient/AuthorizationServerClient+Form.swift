#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The form POST every endpoint but discovery and UserInfo takes, and the one place client
// credentials are added to a request.
extension AuthorizationServerClient {
    /// A POST of `parameters` to `url`, authenticated as `client` at `server`. This is the only
    /// place client credentials are added.
    ///
    /// - A client without a secret sends `client_id` in the body.
    /// - A client with a secret uses HTTP Basic (`client_secret_basic`, RFC 6749 §2.3.1, id and
    ///   secret form-encoded first), except at Google, whose guides for installed apps and for
    ///   TV and limited-input devices send `client_id` and `client_secret` in the body
    ///   (`client_secret_post`).
    /// - A client registered with a method (``Client/authentication``) uses it; a
    ///   `client_secret_basic` client sends `client_id` in the body too, which the MCP SDK's
    ///   servers require and RFC 6749 allows.
    /// - With `alwaysSendingClientID`, `client_id` is in the body in every case (RFC 8628 §3.1).
    /// - A `private_key_jwt` client's assertion is added as each request is sent
    ///   (``signingAssertion(_:of:at:)``), so that a retried request never repeats a `jti`.
    static func formPost(
        to url: URL,
        parameters: [FormParameter],
        as client: Client,
        at server: AuthorizationServer,
        alwaysSendingClientID: Bool = false
    ) -> TransportRequest {
        let credentialFields: Set = ["client_id", "client_secret", "client_assertion", "client_assertion_type"]
        let method = authenticationMethod(of: client, at: server)
        var parameters = parameters.filter { !credentialFields.contains($0.name) }
        let basicSecret = method == .clientSecretBasic ? client.secret : nil
        // A client with an empty id (a security token service that takes no client
        // authentication, as Google's) sends none.
        if !client.id.isEmpty && (basicSecret == nil || alwaysSendingClientID || client.authentication != nil) {
            parameters.append(FormParameter("client_id", client.id))
        }
        if method == .clientSecretPost, let secret = client.secret {
            parameters.append(FormParameter("client_secret", secret.value))
        }
        var request = TransportRequest(
            method: .post,
            url: url,
            headerFields: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: Data(FormEncoding.encode(parameters.map { ($0.name, $0.value) }).utf8)
        )
        if let basicSecret {
            let credentials = FormEncoding.encode(client.id) + ":" + FormEncoding.encode(basicSecret.value)
            request.headerFields["Authorization"] = "Basic " + Data(credentials.utf8).base64EncodedString()
        }
        return request
    }

    /// How `client` authenticates at `server`: `private_key_jwt` when registered so, else its
    /// registered method, none without a secret, form fields at Google, HTTP Basic elsewhere.
    static func authenticationMethod(of client: Client, at server: AuthorizationServer) -> ClientAuthentication {
        if client.authentication == .privateKeyJWT { return .privateKeyJWT }
        guard client.secret != nil else { return .none }
        if let registered = client.authentication { return registered }
        return server.isGoogle ? .clientSecretPost : .clientSecretBasic
    }

    /// The key `client` signs with at `server`, from ``clientKeys``.
    ///
    /// - Parameters:
    ///   - client: The client.
    ///   - server: The server.
    ///   - use: What the client signs, for errors ("authenticates with private_key_jwt").
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when no key source is configured;
    ///   ``BearerError/Kind/proofOfPossession`` when the key cannot be had. Nothing is sent then.
    func clientKey(of client: Client, at server: AuthorizationServer, for use: String) async throws -> any DPoPKey {
        guard let clientKeys else {
            throw BearerError.invalidConfiguration(
                "The client \(client.id) \(use), but no client key source is configured "
                    + "(AuthSession.Configuration.clientKeys); configure the key registered for it. Nothing was sent.")
        }
        do {
            return try await clientKeys.key(for: client, at: server)
        } catch let error as BearerError {
            throw error
        } catch {
            throw BearerError.proofOfPossession(
                "The key of client \(client.id) could not be had (\(type(of: error))); nothing was sent.",
                underlyingError: error)
        }
    }

    /// `request` with `client_assertion_type` and a fresh `client_assertion` by `client` for
    /// `server` added to its form body, signed with the client's key from ``clientKeys``.
    ///
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when no key source is configured;
    ///   ``BearerError/Kind/proofOfPossession`` when the key cannot be had or cannot sign. Nothing
    ///   is sent then.
    func signingAssertion(
        _ request: TransportRequest, of client: Client, at server: AuthorizationServer
    ) async throws -> TransportRequest {
        let key = try await clientKey(of: client, at: server, for: "authenticates with private_key_jwt")
        let audience = clientAssertionAudience == .endpoint ? Self.endpointAudience(of: request.url) : nil
        let assertion = try await ClientAssertion.signed(
            by: client, for: server, audience: audience, with: key, at: clock.now())
        let fields = FormEncoding.encode([
            ("client_assertion_type", ClientAssertion.type), ("client_assertion", assertion),
        ])
        var signed = request
        let body = signed.body ?? Data()
        signed.body = body + Data(((body.isEmpty ? "" : "&") + fields).utf8)
        return signed
    }

    /// The endpoint URL an assertion sent to `url` names with ``ClientAssertionAudience/endpoint``:
    /// `url` without its query and fragment.
    static func endpointAudience(of url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.query = nil
        components.fragment = nil
        return components.url?.absoluteString ?? url.absoluteString
    }
}
