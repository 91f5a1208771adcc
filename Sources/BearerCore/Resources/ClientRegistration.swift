#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A dynamic client registration (RFC 7591 §3.1) and the reading of its answer (§3.2).
enum ClientRegistration {
    /// The longest `client_id` accepted (servers issue tens of characters).
    static let maximumClientIDLength = 1024

    /// The registration request's JSON body: a native client with `redirectURI`, the
    /// authorization code and refresh token grants; no `scope`, so the server's defaults apply and
    /// a later step-up may ask for more.
    ///
    /// Without `assertionKey` the client is public and no `token_endpoint_auth_method` is sent, so
    /// the server chooses, and its answer says what the client then uses. With it, the client asks
    /// for `private_key_jwt` and registers the key's public half as its `jwks` (RFC 7591 §2).
    static func body(name: String, redirectURI: URL, assertionKey: DPoPPublicKey? = nil) throws -> Data {
        var fields: [String: JSONValue] = [
            "client_name": .string(name),
            "redirect_uris": .array([.string(redirectURI.absoluteString)]),
            "grant_types": .array([.string("authorization_code"), .string("refresh_token")]),
            "response_types": .array([.string("code")]),
        ]
        // Loopback and private-use scheme redirects are a native app's (RFC 8252 §7).
        if redirectURI.scheme != "https" { fields["application_type"] = .string("native") }
        if let assertionKey {
            fields["token_endpoint_auth_method"] = .string(ClientAuthentication.privateKeyJWT.rawValue)
            fields["jwks"] = try JSONDecoder().decode(
                JSONValue.self, from: Data(ClientAssertion.publicKeySet(of: assertionKey).utf8))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(fields)
    }

    /// Reads a successful registration's answer into the client to use.
    ///
    /// - Parameters:
    ///   - answer: The JSON body.
    ///   - redirectURI: The redirect URI registered.
    ///   - askedForAssertions: Whether the registration asked for `private_key_jwt`; the server must
    ///     then have granted it.
    /// - Throws: ``BearerError/Kind/registrationFailed`` for an answer without a usable
    ///   `client_id`, with an authentication method Bearer cannot use or did not ask for, or whose
    ///   redirect URIs leave out the one asked for.
    static func client(from answer: Data, redirectURI: URL, askedForAssertions: Bool = false) throws -> Client {
        guard let fields = try? JSONDecoder().decodeRefusingDeepNesting([String: JSONValue].self, from: answer) else {
            throw BearerError.registrationFailed("The registration answer is not a JSON object (RFC 7591 §3.2.1).")
        }
        guard let id = fields["client_id"]?.stringValue, !id.isEmpty, id.utf8.count <= maximumClientIDLength,
            id.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) })
        else {
            throw BearerError.registrationFailed(
                "The registration answer has no usable client_id (RFC 7591 §3.2.1), so the client cannot sign in.")
        }
        let secret = fields["client_secret"]?.stringValue.flatMap { $0.isEmpty ? nil : ClientSecret($0) }
        let authentication = try Self.authentication(
            fields["token_endpoint_auth_method"], hasSecret: secret != nil, askedForAssertions: askedForAssertions)
        if case .array(let uris)? = fields["redirect_uris"], !uris.contains(.string(redirectURI.absoluteString)) {
            throw BearerError.registrationFailed(
                "The server registered other redirect URIs than \(redirectURI.forMessages); the sign-in could "
                    + "not come back.")
        }
        var expiry: Date?
        if let seconds = fields["client_secret_expires_at"]?.numberValue, seconds > 0,
            seconds < AuthState.largestStoredSeconds
        {
            expiry = Date(timeIntervalSince1970: seconds)
        }
        // RFC 7592's management credentials are kept with the client, not dropped.
        let managementToken = fields["registration_access_token"]?.stringValue.flatMap {
            $0.isEmpty ? nil : RegistrationAccessToken($0)
        }
        let managementURI = fields["registration_client_uri"]?.stringValue.flatMap(URL.init(string:))
        return Client(
            id: id, secret: secret, redirectURI: redirectURI, authentication: authentication,
            secretExpiresAt: secret == nil ? nil : expiry, registrationAccessToken: managementToken,
            registrationClientURI: managementToken == nil ? nil : managementURI)
    }

    /// The method a registered client authenticates with: the answer's, or RFC 7591 §2's default
    /// (`client_secret_basic`) when it names none and issued a secret; `private_key_jwt`, which
    /// must be what the answer names, when the registration asked for it.
    private static func authentication(_ value: JSONValue?, hasSecret: Bool, askedForAssertions: Bool) throws
        -> ClientAuthentication
    {
        var named: String?
        switch value {
        case .string(let method)?: named = method
        case .array(let methods)?: named = methods.first?.stringValue  // glewlwyd's management answers
        default: named = nil
        }
        if askedForAssertions {
            // RFC 7591 §3.2.1: the answer holds the metadata registered, which may differ from the asked.
            guard named == ClientAuthentication.privateKeyJWT.rawValue || (named == nil && !hasSecret) else {
                throw BearerError.registrationFailed(
                    "The registration asked for private_key_jwt with the client's key, but the server registered "
                        + "token_endpoint_auth_method \"\(named.map { String($0.prefix(40)) } ?? "client_secret_basic")\"; the client was not used. "
                        + "Check that the server accepts private_key_jwt and registered keys (jwks).")
            }
            return .privateKeyJWT
        }
        guard let named else { return hasSecret ? .clientSecretBasic : .none }
        guard let method = ClientAuthentication(rawValue: named) else {
            throw BearerError.registrationFailed(
                "The server registered the client with token_endpoint_auth_method \"\(named.prefix(40))\", which "
                    + "Bearer cannot use (it uses none, client_secret_basic and client_secret_post).")
        }
        guard method != .privateKeyJWT else {
            throw BearerError.registrationFailed(
                "The server registered the client for private_key_jwt, which Bearer did not ask for and has no "
                    + "registered key for; configure clientKeys to register with a key.")
        }
        guard method == .none || hasSecret else {
            throw BearerError.registrationFailed(
                "The server registered the client for \(method.rawValue) but issued no client_secret.")
        }
        return method
    }
}
