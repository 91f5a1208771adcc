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
    static func formPost(
        to url: URL,
        parameters: [FormParameter],
        as client: Client,
        at server: AuthorizationServer,
        alwaysSendingClientID: Bool = false
    ) -> TransportRequest {
        var parameters = parameters.filter { $0.name != "client_id" && $0.name != "client_secret" }
        let method = authenticationMethod(of: client, at: server)
        let basicSecret = method == .clientSecretBasic ? client.secret : nil
        if basicSecret == nil || alwaysSendingClientID || client.authentication != nil {
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

    /// How `client` authenticates at `server`: its registered method, else none without a secret,
    /// form fields at Google, HTTP Basic elsewhere.
    static func authenticationMethod(of client: Client, at server: AuthorizationServer) -> ClientAuthentication {
        guard client.secret != nil else { return .none }
        if let registered = client.authentication { return registered }
        return server.isGoogle ? .clientSecretPost : .clientSecretBasic
    }
}
