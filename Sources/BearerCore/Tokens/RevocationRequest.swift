#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A token revocation request (RFC 7009 §2.1).
///
/// Revoking the refresh token ends the whole grant at most servers, Google included, so a
/// session is revoked through its refresh token when it has one.
struct RevocationRequest: Sendable, Hashable {
    /// The server.
    let server: AuthorizationServer
    /// The client.
    let client: Client
    /// The body parameters: `token` and `token_type_hint`.
    let parameters: [FormParameter]

    /// The request that revokes a session: its refresh token if it has one, else its access token.
    ///
    /// - Parameter state: The session.
    /// - Returns: The request, or `nil` when the session holds no token.
    init?(revoking state: AuthState) {
        let token: String
        let hint: String
        if let refreshToken = state.refreshToken {
            (token, hint) = (refreshToken.value, "refresh_token")
        } else if let accessToken = state.accessToken {
            (token, hint) = (accessToken.value, "access_token")
        } else {
            return nil
        }
        self.init(state, token: token, hint: hint)
    }

    /// The request that revokes `token` of `state`'s grant.
    init(_ state: AuthState, token: String, hint: String) {
        self.server = state.server
        self.client = state.client
        self.parameters = [FormParameter("token", token), FormParameter("token_type_hint", hint)]
    }

    /// The `token_type_hint` sent.
    var hint: String {
        parameters.first { $0.name == "token_type_hint" }?.value ?? ""
    }
}

extension RevocationRequest: RedactedDescription {
    /// The endpoint and parameters, with the token redacted.
    var description: String {
        "RevocationRequest(\(server.revocationEndpoint?.absoluteString ?? "no endpoint"), \(parameters.redactedDescription))"
    }
}
