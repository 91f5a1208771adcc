#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the pending sign-in's redirect must carry: its `state`, and the server's `iss` when the
/// server sends one or promises to (RFC 9207 §2.4).
struct RedirectExpectation: Sendable, Hashable {
    /// The request's `state`.
    let state: String
    /// The server's issuer identifier.
    let issuer: String
    /// Whether the server promised `iss` in every authorization response.
    let requiresIssuer: Bool

    /// What the redirect of `request` must carry.
    init(_ request: AuthorizationRequest) {
        self.init(
            state: request.state,
            issuer: request.server.issuer.absoluteString,
            // A logout's redirect carries no iss (RP-Initiated Logout 1.0 §3).
            requiresIssuer: request.server.sendsIssuerInAuthorizationResponse && request.endSessionPage == nil
        )
    }

    /// What a redirect must carry, given its parts.
    init(state: String, issuer: String, requiresIssuer: Bool) {
        self.state = state
        self.issuer = issuer
        self.requiresIssuer = requiresIssuer
    }

    /// What a redirect's query is to the pending sign-in.
    enum Verdict: Sendable, Hashable {
        /// Not its answer: no `state`, another one, or parameters repeated. The wait goes on.
        case notThisSignIn
        /// Its answer, with the server's `iss` when one came or was promised.
        case answer
        /// Its answer, an error (`error`, no `code`) without the promised `iss`: stock servers
        /// such as django-oauth-toolkit send a declined consent this way. Only the server's error
        /// can come of it, so it ends the sign-in with that error.
        case errorWithoutIssuer
        /// Its answer (the `state` proves it), failing the issuer check: another server's `iss`
        /// (a mix-up, RFC 9207 §2.4), or a `code` without the promised `iss`. It ends the sign-in
        /// with a typed error; the code is never exchanged.
        case failsIssuerCheck
    }

    /// Judges a redirect's query: exactly one `state`, equal to the request's, makes it this
    /// sign-in's answer; its `iss` (at most one) then decides how it ends.
    func verdict(query: String) -> Verdict {
        let pairs = FormEncoding.decodePairs(query)
        let states = pairs.filter { $0.name == "state" }.map(\.value)
        let issuers = pairs.filter { $0.name == "iss" }.map(\.value)
        guard states.count == 1, let received = states.first, ConstantTime.equals(received, state), issuers.count <= 1
        else {
            return .notThisSignIn
        }
        if let received = issuers.first { return received == issuer ? .answer : .failsIssuerCheck }
        guard requiresIssuer else { return .answer }
        let isError = pairs.contains { $0.name == "error" } && !pairs.contains { $0.name == "code" }
        return isError ? .errorWithoutIssuer : .failsIssuerCheck
    }

    /// Whether a redirect's query is this sign-in's answer (see ``verdict(query:)``), which ends
    /// the wait however it then ends the sign-in.
    func accepts(query: String) -> Bool {
        verdict(query: query) != .notThisSignIn
    }
}
