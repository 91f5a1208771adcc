#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

// How a request presents the session's access token: as a Bearer token (RFC 6750 §2.1), or as a
// DPoP token with a proof of the grant's key (RFC 9449 §7.1).
extension AuthSession {
    /// A fresh access token and how to present it.
    struct Presentation: Sendable {
        /// The access token.
        let token: AccessToken
        /// Makes the proofs of a DPoP token; `nil` for a Bearer token.
        let prover: DPoPProver?

        /// `DPoP` or `Bearer`: the scheme whose challenges speak of this token.
        var scheme: String { prover == nil ? "Bearer" : "DPoP" }

        /// `request` with `Authorization` set, and for a DPoP token a new `DPoP` proof with the
        /// origin's latest nonce.
        func stamped(_ request: TransportRequest) async throws -> TransportRequest {
            guard let prover else { return presenting(request) }
            return try await prover.proving(presenting(request), presenting: token)
        }

        /// Sends `request` presenting the token; a DPoP request is sent once more with the
        /// resource's new nonce when it asks for one.
        func send(_ request: TransportRequest, using transport: any HTTPTransport) async throws -> TransportResponse {
            guard let prover else { return try await AuthSession.sendToResource(presenting(request), using: transport) }
            return try await prover.send(presenting(request), presenting: token) {
                try await AuthSession.sendToResource($0, using: transport)
            }
        }

        /// `request` with `Authorization` set to the token in its scheme, without a proof.
        private func presenting(_ request: TransportRequest) -> TransportRequest {
            var presented = request
            if prover == nil {
                presented.setBearerToken(token)
            } else {
                presented.headerFields["Authorization"] = "DPoP " + token.value
            }
            return presented
        }
    }

    /// A token that serves `need` for a request to `url`, once `url` may receive one (https, or
    /// allowed loopback http, and an allowed host), and how to present it.
    ///
    /// - Throws: ``BearerError/Kind/proofOfPossession`` for a DPoP token whose key is missing or
    ///   cannot be rebuilt: it is never sent as a Bearer token, and the session is kept.
    func presentation(for url: URL?, _ need: Need = .freshToken) async throws -> Presentation {
        try EndpointSecurity.checkDestination(
            url,
            allowedHosts: configuration.allowedHosts,
            allowingInsecureLoopback: machine.state.server.allowsInsecureLoopback
        )
        let checked = machine.state.resource
        try Self.checkResource(of: machine.state, covers: url)
        let state = try await freshState(need)
        // The stored copy a refresh read may be another sign-in's, for another resource.
        if state.resource != checked { try Self.checkResource(of: state, covers: url) }
        guard let token = state.accessToken else {
            throw BearerError.invalidResponse("The session has no access token after a refresh.")
        }
        guard state.accessTokenType == .dpop else { return Presentation(token: token, prover: nil) }
        guard let key = try configuration.dpop.key(of: state) else {
            throw BearerError.proofOfPossession("The session's DPoP token has no key; it was not sent.")
        }
        return Presentation(
            token: token, prover: DPoPProver(key: key, memory: configuration.dpop.memory, clock: clock))
    }
}

extension AuthSession {
    /// Refuses a request to `url` when `state`'s tokens are for a resource that does not cover it.
    ///
    /// - Throws: ``BearerError/Kind/resourceMismatch``; nothing is sent.
    static func checkResource(of state: AuthState, covers url: URL?) throws {
        guard let resource = state.resource, let url, !resource.covers(url) else { return }
        throw BearerError.resourceMismatch(
            "The session's tokens are for \(resource) (RFC 8707), not for \(url.forMessages); no token was "
                + "added. Sign in to that resource with its own session."
        )
    }

    /// Keeps the `DPoP-Nonce` of an answer to a request the app sent itself, authorized with
    /// ``authorize(_:)->TransportRequest``, so that the next proof for that server carries it
    /// (RFC 9449 §9). When the answer is a `401` asking for it (`WWW-Authenticate: DPoP
    /// error="use_dpop_nonce"`), authorize the request again and send it once more;
    /// ``data(for:)->TransportResponse`` does all of this itself.
    ///
    /// - Parameters:
    ///   - response: The answer.
    ///   - url: The URL of the request it answers.
    /// - Returns: Whether the answer asked for a new nonce, so the request is worth sending again.
    @discardableResult
    public func takeDPoPNonce(from response: TransportResponse, for url: URL) -> Bool {
        let latest = configuration.dpop.memory.keep(from: response, for: url)
        return latest != nil && DPoPProver.asksForNonce(response)
    }
}
