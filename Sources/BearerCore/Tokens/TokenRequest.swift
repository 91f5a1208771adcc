#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A request to the token endpoint (RFC 6749 §3.2): an authorization-code exchange or a refresh.
///
/// The body is form-encoded by hand (only `A–Z a–z 0–9 - . _ ~` left unescaped). A client with a
/// secret authenticates with HTTP Basic (`client_secret_basic`, RFC 6749 §2.3.1), id and secret
/// form-encoded before base64 — at Google with `client_id` and `client_secret` in the body, as
/// Google's guides do; one without sends `client_id` in the body.
struct TokenRequest: Sendable, Hashable {
    /// The parameter names whose values are secrets, redacted from descriptions.
    static let secretParameterNames: Set<String> = [
        "code", "code_verifier", "refresh_token", "client_secret", "token", "device_code", "subject_token",
        "actor_token", "assertion",
    ]

    /// The server whose token endpoint receives the request.
    let server: AuthorizationServer
    /// The body parameters, in order.
    let parameters: [FormParameter]
    /// The client that authenticates.
    let client: Client

    /// Creates a request to a server's token endpoint with the given body parameters.
    ///
    /// - Parameters:
    ///   - server: The server.
    ///   - parameters: The body parameters; `client_id` is added when the request is built, for
    ///     clients without a secret.
    ///   - client: The client, whose secret (if any) is sent with HTTP Basic.
    init(server: AuthorizationServer, parameters: [FormParameter], client: Client) {
        self.server = server
        self.client = client
        self.parameters = parameters
    }

    /// An authorization-code exchange with the PKCE verifier (RFC 6749 §4.1.3, RFC 7636 §4.5).
    ///
    /// - Parameters:
    ///   - response: The checked authorization response.
    ///   - request: The request it answers.
    ///   - additionalParameters: Extra body parameters, such as RFC 8707 `resource` or `audience`
    ///     (as AppAuth's `additionalParameters`); they cannot replace the standard ones.
    /// - Returns: The token request.
    static func authorizationCode(
        _ response: AuthorizationResponse,
        for request: AuthorizationRequest,
        additionalParameters: [String: String] = [:]
    ) -> TokenRequest {
        var parameters = [
            FormParameter("grant_type", "authorization_code"),
            FormParameter("code", response.code.value),
            FormParameter("redirect_uri", request.redirectURI.absoluteString),
            FormParameter("code_verifier", request.pkce.verifier),
        ]
        let standard: Set<String> = [
            "grant_type", "code", "redirect_uri", "code_verifier", "client_id", "client_secret",
        ]
        for name in additionalParameters.keys.sorted() where !standard.contains(name) {
            if let value = additionalParameters[name] { parameters.append(FormParameter(name, value)) }
        }
        return TokenRequest(server: request.server, parameters: parameters, client: request.client)
    }

    /// A refresh (RFC 6749 §6), optionally asking for fewer scopes than were granted.
    ///
    /// - Parameters:
    ///   - refreshToken: The refresh token.
    ///   - server: The server.
    ///   - client: The client.
    ///   - scopes: A narrower scope to ask for, or `nil` for the granted one.
    ///   - additionalParameters: Extra body parameters; they cannot replace the standard ones.
    /// - Returns: The token request.
    static func refresh(
        _ refreshToken: RefreshToken,
        server: AuthorizationServer,
        client: Client,
        scopes: [String]? = nil,
        additionalParameters: [String: String] = [:]
    ) -> TokenRequest {
        var parameters = [
            FormParameter("grant_type", "refresh_token"),
            FormParameter("refresh_token", refreshToken.value),
        ]
        if let scopes, !scopes.isEmpty { parameters.append(FormParameter("scope", scopes.joined(separator: " "))) }
        let standard: Set<String> = ["grant_type", "refresh_token", "scope", "client_id", "client_secret"]
        for name in additionalParameters.keys.sorted() where !standard.contains(name) {
            if let value = additionalParameters[name] { parameters.append(FormParameter(name, value)) }
        }
        return TokenRequest(server: server, parameters: parameters, client: client)
    }

    /// The token endpoint.
    var endpoint: URL { server.tokenEndpoint }

    /// The request to send: POST, form-encoded, accepting JSON, with HTTP Basic for a client
    /// with a secret (at Google, `client_id` and `client_secret` in the body) and `client_id` in
    /// the body for one without.
    var transportRequest: TransportRequest {
        AuthorizationServerClient.formPost(to: endpoint, parameters: parameters, as: client, at: server)
    }
}

extension TokenRequest: RedactedDescription {
    /// The endpoint and parameter names, with secret values redacted.
    var description: String {
        "TokenRequest(\(endpoint.absoluteString), \(parameters.redactedDescription), "
            + "client authentication: \(AuthorizationServerClient.authenticationMethod(of: client, at: server).rawValue))"
    }
}

/// One name/value pair of a form-encoded body.
struct FormParameter: Sendable, Hashable {
    /// The name.
    let name: String
    /// The value.
    let value: String

    /// Creates a pair.
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension FormParameter: RedactedDescription {
    /// `name=value`, with the value redacted when the parameter carries a secret (a code, a
    /// verifier, a token, a client secret).
    var description: String {
        TokenRequest.secretParameterNames.contains(name) ? "\(name)=<redacted>" : "\(name)=\(value)"
    }
}

extension [FormParameter] {
    /// The parameters as `name=value&…`, with secret values redacted.
    var redactedDescription: String {
        map(\.description).joined(separator: "&")
    }
}
