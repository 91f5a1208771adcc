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
    package static func revokingEveryToken(of state: AuthState) -> [RevocationRequest] {
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

extension AuthState {
    /// Revokes every token of this session at its server (RFC 7009), best effort: each request is
    /// sent even when an earlier one failed.
    ///
    /// A server that does not revoke access tokens answers `unsupported_token_type` (RFC 7009
    /// §2.2.1); that answer to the access token's request does not count as a failure once the
    /// refresh token was revoked.
    ///
    /// - Parameters:
    ///   - transport: Sends the requests.
    ///   - clock: Gives the time of receipt, against which a `Retry-After` date is read.
    /// - Returns: ``RevocationOutcome/revoked`` when every token was revoked,
    ///   ``RevocationOutcome/notRevoked`` when the server has no revocation endpoint or the session
    ///   holds no token, ``RevocationOutcome/failed(_:)`` with the first failure otherwise.
    package func revokingEveryToken(using transport: any HTTPTransport, clock: WallClock) async -> RevocationOutcome {
        let requests = RevocationRequest.revokingEveryToken(of: self)
        guard server.revocationEndpoint != nil, !requests.isEmpty else { return .notRevoked }
        var failure: (any Error)?
        for request in requests {
            do {
                try await request.send(using: transport, clock: clock)
            } catch let error as OAuthError
                where error.code == "unsupported_token_type" && request.hint == "access_token" && refreshToken != nil
            {
                continue
            } catch {
                failure = failure ?? error
            }
        }
        return failure.map { .failed($0) } ?? .revoked
    }
}
