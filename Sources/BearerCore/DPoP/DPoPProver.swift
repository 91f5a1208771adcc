#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Sends requests with DPoP proofs made by one key: each request gets a new proof with the
/// origin's latest nonce, every answer's `DPoP-Nonce` is kept, and a request the server refused
/// for want of a new nonce is sent once more with it (RFC 9449 §8, §9).
///
/// The token endpoint asks with `400` and `{"error":"use_dpop_nonce"}`, a resource with `401` and
/// `WWW-Authenticate: DPoP error="use_dpop_nonce"`; both are recognised wherever they come from.
struct DPoPProver: Sendable {
    /// Signs the proofs.
    let key: any DPoPKey
    /// The nonces each origin sent.
    let memory: DPoPMemory
    /// Gives each proof's `iat`.
    let clock: WallClock

    /// `request` with its `DPoP` header: a new proof for its method and URL, with the origin's
    /// latest nonce, and `ath` for `accessToken`.
    func proving(_ request: TransportRequest, presenting accessToken: AccessToken?) async throws
        -> TransportRequest
    {
        try await proving(request, presenting: accessToken, nonce: memory.nonce(for: request.url))
    }

    /// `request` with a new proof carrying `nonce`.
    private func proving(_ request: TransportRequest, presenting accessToken: AccessToken?, nonce: String?)
        async throws -> TransportRequest
    {
        var proved = request
        proved.headerFields["DPoP"] = try await DPoPProof(
            method: request.method.rawValue, url: request.url, nonce: nonce, accessToken: accessToken,
            issuedAt: clock.now()
        ).signed(with: key)
        return proved
    }

    /// Sends `request` with a proof through `send`, and once more with a new proof when the server
    /// answers that it wants a nonce it has just sent.
    ///
    /// - Parameters:
    ///   - request: The request, without a `DPoP` header.
    ///   - accessToken: The access token it presents, for `ath`; `nil` at the token endpoint.
    ///   - send: Sends one request.
    /// - Returns: The last answer.
    func send(
        _ request: TransportRequest,
        presenting accessToken: AccessToken?,
        through send: (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        let sentNonce = memory.nonce(for: request.url)
        var response = try await send(try await proving(request, presenting: accessToken, nonce: sentNonce))
        let latest = memory.keep(from: response, for: request.url)
        if Self.asksForNonce(response), let latest, latest != sentNonce {
            response = try await send(try await proving(request, presenting: accessToken, nonce: latest))
            memory.keep(from: response, for: request.url)
        }
        return response
    }

    /// Whether `response` refuses a proof for want of a (new) nonce.
    static func asksForNonce(_ response: TransportResponse) -> Bool {
        switch response.status {
        case 401:
            return response.headerFields["WWW-Authenticate"]
                .flatMap { BearerChallenge(header: $0, scheme: "DPoP") }?.error == "use_dpop_nonce"
        case 400:
            let object = try? JSONDecoder().decodeRefusingDeepNesting([String: JSONValue].self, from: response.body)
            return object?["error"]?.stringValue == "use_dpop_nonce"
        default:
            return false
        }
    }
}
