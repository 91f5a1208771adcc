#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the pending sign-in's redirect must carry: its `state`, and the server's `iss` when the
/// server sends one or promises to (RFC 9207 §2.4).
package struct RedirectExpectation: Sendable, Hashable {
    /// The request's `state`.
    package let state: String
    /// The server's issuer identifier.
    package let issuer: String
    /// Whether the server promised `iss` in every authorization response.
    package let requiresIssuer: Bool

    /// What the redirect of `request` must carry.
    package init(_ request: AuthorizationRequest) {
        self.init(
            state: request.state,
            issuer: request.server.issuer.absoluteString,
            requiresIssuer: request.server.sendsIssuerInAuthorizationResponse
        )
    }

    /// What a redirect must carry, given its parts.
    package init(state: String, issuer: String, requiresIssuer: Bool) {
        self.state = state
        self.issuer = issuer
        self.requiresIssuer = requiresIssuer
    }

    /// Whether a redirect's query has exactly one `state`, equal to the request's, and at most one
    /// `iss`, equal to the issuer (present when required).
    package func accepts(query: String) -> Bool {
        let pairs = FormEncoding.decodePairs(query)
        let states = pairs.filter { $0.name == "state" }.map(\.value)
        let issuers = pairs.filter { $0.name == "iss" }.map(\.value)
        guard states.count == 1, let received = states.first, ConstantTime.equals(received, state) else {
            return false
        }
        switch issuers.count {
        case 0: return !requiresIssuer
        case 1: return issuers.first == issuer
        default: return false
        }
    }
}
