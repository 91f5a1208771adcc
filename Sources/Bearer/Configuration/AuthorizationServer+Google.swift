extension AuthorizationServer {
    /// Whether this is Google's authorization server: its issuer is that of ``google``.
    ///
    /// The issuer decides it, not the endpoints, since an issuer is what ID tokens and redirects are
    /// checked against (RFC 8414 §2).
    package var isGoogle: Bool {
        issuer == Self.google.issuer
    }

    /// Whether `host` is one where Google serves OAuth: `accounts.google.com`, or `googleapis.com`
    /// or one of its subdomains.
    ///
    /// Use it only to recognise Google's endpoints in data that names no issuer; which hosts get a
    /// Google token is ``AuthorizationPolicy/google``'s business.
    ///
    /// - Parameter host: A URL's host, if it has one.
    /// - Returns: `true` for a Google OAuth host, matched as ``host(_:isWithin:)`` does.
    package static func isGoogleHost(_ host: String?) -> Bool {
        Self.host(host, isWithin: "googleapis.com") || Self.host(host, isWithin: "accounts.google.com")
    }

    /// Whether `host` is `domain` itself or a subdomain of it.
    ///
    /// Labels are compared whole, so `evilgoogleapis.com` is not within `googleapis.com`; case and
    /// one trailing dot (a fully qualified name) are ignored.
    ///
    /// - Parameters:
    ///   - host: A URL's host, if it has one.
    ///   - domain: A domain name such as `googleapis.com`.
    /// - Returns: `true` when `host` equals `domain` or ends with a dot followed by `domain`.
    package static func host(_ host: String?, isWithin domain: String) -> Bool {
        guard let host = host.map(Self.canonicalHost), !host.isEmpty else { return false }
        let domain = Self.canonicalHost(domain)
        guard !domain.isEmpty else { return false }
        if host == domain { return true }
        guard host.hasSuffix("." + domain) else { return false }
        let subdomain = host.dropLast(domain.count + 1)
        return !subdomain.isEmpty && !subdomain.hasSuffix(".")
    }

    /// `name` in lower case, without a trailing dot.
    private static func canonicalHost(_ name: String) -> String {
        let lowercased = name.lowercased()
        return lowercased.hasSuffix(".") ? String(lowercased.dropLast()) : lowercased
    }
}
