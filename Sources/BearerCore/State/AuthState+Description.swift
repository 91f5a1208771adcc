#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension AuthState: RedactedDescription {
    /// The issuer, client, user, scopes, expiry and state; never a token.
    public var description: String {
        var parts = [
            "issuer: \(server.issuer.absoluteString)",
            "client: \(client.id)",
            "user: \(user?.email ?? user?.subject ?? "unknown")",
            "scopes: \(grantedScopes.joined(separator: " "))",
            "accessToken: \(accessToken == nil ? "none" : "<redacted>")",
            "expiresAt: \(accessTokenExpiresAt.map { "\($0)" } ?? "unknown")",
            "refreshToken: \(refreshToken == nil ? "none" : "<redacted>")",
        ]
        if let dpopKey { parts.append("DPoP key: \(dpopKey.thumbprint)") }
        if let signInRequiredError { parts.append("sign-in required: \(signInRequiredError.code)") }
        return "AuthState(\(parts.joined(separator: ", ")))"
    }
}
