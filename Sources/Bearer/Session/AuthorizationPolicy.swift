public import Foundation

/// Where an ``AuthSession`` may send tokens and when it refreshes them.
public struct AuthorizationPolicy: Sendable, Hashable {
    /// How long before expiry a token is refreshed (60 s by default); for short-lived tokens the
    /// smaller of this and half the token's lifetime is used (see ``AuthState/effectiveLeeway(_:)``).
    public var refreshLeeway: TimeInterval
    /// Whether tokens may be sent over plain http to a loopback address (tests, local development).
    public var allowsInsecureLoopback: Bool
    /// The hosts tokens may be sent to, or `nil` for any https host. An entry is a host name
    /// (`www.example.com`) or a wildcard for its subdomains (`*.googleapis.com`, which does not
    /// match `googleapis.com` itself).
    public var allowedHosts: [String]?
    /// The clock skew allowed when checking ID tokens.
    public var allowedClockSkew: TimeInterval

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - refreshLeeway: How long before expiry to refresh.
    ///   - allowsInsecureLoopback: Whether http to loopback addresses is allowed.
    ///   - allowedHosts: The hosts tokens may go to, or `nil` for any https host.
    ///   - allowedClockSkew: The clock skew allowed when checking ID tokens.
    public init(
        refreshLeeway: TimeInterval = AuthState.defaultRefreshLeeway,
        allowsInsecureLoopback: Bool = false,
        allowedHosts: [String]? = nil,
        allowedClockSkew: TimeInterval = 600
    ) {
        self.refreshLeeway = refreshLeeway
        self.allowsInsecureLoopback = allowsInsecureLoopback
        self.allowedHosts = allowedHosts
        self.allowedClockSkew = allowedClockSkew
    }

    /// Google APIs: tokens go only to `*.googleapis.com`.
    public static let google = AuthorizationPolicy(allowedHosts: ["*.googleapis.com"])

    /// Checks that a token may be sent to `url`.
    ///
    /// - Parameter url: The request's URL.
    /// - Throws: ``BearerError/Kind/insecureEndpoint`` for a URL that is not https (or allowed
    ///   loopback http); ``BearerError/Kind/hostNotAllowed`` for a host outside ``allowedHosts``.
    public func checkDestination(_ url: URL?) throws {
        guard let url else {
            throw BearerError(.invalidConfiguration, "The request has no URL, so no token was added.")
        }
        try EndpointSecurity.check(url, allowingInsecureLoopback: allowsInsecureLoopback)
        guard let allowedHosts else { return }
        let host = (url.host ?? "").lowercased()
        let allowed = allowedHosts.contains { pattern in
            let pattern = pattern.lowercased()
            if pattern.hasPrefix("*.") {
                return host.hasSuffix(pattern.dropFirst()) && host.count > pattern.count - 1
            }
            return host == pattern
        }
        guard allowed else {
            throw BearerError(
                .hostNotAllowed,
                "\(host) is not among the hosts this session sends tokens to (\(allowedHosts.joined(separator: ", "))); "
                    + "no token was added. Add it to the policy's allowedHosts if it should get one."
            )
        }
    }
}
