#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension RevocationRequest {
    /// The requests that revoke every token of `state`: its refresh token first (which ends the
    /// whole grant at most servers), then its access token, since RFC 7009 §2.1 only says a server
    /// SHOULD invalidate the access tokens of a revoked refresh token, and not every server does.
    ///
    /// - Parameter state: The session.
    /// - Returns: The requests, none when the session holds no token.
    static func revokingEveryToken(of state: AuthState) -> [RevocationRequest] {
        var requests: [RevocationRequest] = []
        if let refreshToken = state.refreshToken {
            requests.append(RevocationRequest(state, token: refreshToken.value, hint: "refresh_token"))
        }
        if let accessToken = state.accessToken {
            requests.append(RevocationRequest(state, token: accessToken.value, hint: "access_token"))
        }
        return requests
    }
}
