#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The redirect an authorization in progress waits for: its redirect URI, `state` and issuer. It
/// decides whether a URL handed to the app belongs to that authorization, with no side effect.
struct PendingRedirect: Sendable, Hashable {
    /// The request's redirect URI.
    let redirectURI: URL
    /// The `state` and issuer its query must carry.
    let expected: RedirectExpectation

    /// The redirect of `request`.
    init(_ request: AuthorizationRequest) {
        self.redirectURI = request.redirectURI
        self.expected = RedirectExpectation(request)
    }

    /// Whether `url` is this authorization's redirect: it matches the redirect URI (scheme and host
    /// case-insensitively, port, path) and its query satisfies ``RedirectExpectation``. An error
    /// redirect with the right `state` belongs to it too.
    ///
    /// - Parameter url: A URL the app was asked to open.
    /// - Returns: `true` when it is this authorization's answer.
    func accepts(_ url: URL) -> Bool {
        guard (try? AuthorizationResponse.checkMatches(url, expected: redirectURI)) != nil else { return false }
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        return expected.accepts(query: query)
    }
}
