#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension AuthorizationServer {
    /// Whether this is Google's authorization server: its issuer is that of ``google``.
    ///
    /// The issuer decides it, not the endpoints, since an issuer is what ID tokens and redirects are
    /// checked against (RFC 8414 §2).
    @_spi(CommandLine) @_spi(Migration) public var isGoogle: Bool {
        issuer == Self.google.issuer
    }

    /// The `iss` values an ID token of this server may carry: the issuer, exactly; for Google also
    /// `accounts.google.com`, which Google's OpenID Connect guide says clients must accept too.
    var idTokenIssuers: [String] {
        isGoogle ? [issuer.absoluteString, "accounts.google.com"] : [issuer.absoluteString]
    }

    /// Whether `host` is one where Google serves OAuth: `accounts.google.com`, or `googleapis.com`
    /// or one of its subdomains.
    ///
    /// Use it only to recognise Google's endpoints in data that names no issuer; which hosts get a
    /// Google token is `AuthSession.Configuration.google`'s business.
    ///
    /// - Parameter host: A URL's host, if it has one.
    /// - Returns: `true` for a Google OAuth host, matched as `EndpointSecurity.host(_:isWithin:)` does.
    @_spi(Migration) public static func isGoogleHost(_ host: String?) -> Bool {
        EndpointSecurity.host(host, isWithin: "googleapis.com")
            || EndpointSecurity.host(host, isWithin: "accounts.google.com")
    }
}
