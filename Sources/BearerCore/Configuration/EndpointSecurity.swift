#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decides whether a URL may carry credentials: https always; http only to a loopback address, and
/// only when the caller allows it.
@_spi(Bridge) @_spi(CommandLine) public enum EndpointSecurity {
    /// Whether `host` names the local machine: `localhost`, 127.0.0.0/8 or `::1`.
    ///
    /// - Parameter host: A URL's host, with or without IPv6 brackets.
    /// - Returns: `true` for a loopback host.
    @_spi(Bridge) @_spi(CommandLine) public static func isLoopback(host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { octet in
            guard !octet.isEmpty, octet.count <= 3, let value = Int(octet) else { return false }
            return value <= 255
        }
    }

    /// Checks that `url` is https, or http on a loopback host when `allowingInsecureLoopback` is set.
    ///
    /// - Parameters:
    ///   - url: The URL a credential would be sent to.
    ///   - allowingInsecureLoopback: Whether http to a loopback host is acceptable.
    /// - Throws: ``BearerError/Kind/insecureEndpoint`` otherwise.
    static func check(_ url: URL, allowingInsecureLoopback: Bool) throws {
        let scheme = url.scheme?.lowercased()
        guard let host = url.host, !host.isEmpty else {
            throw BearerError.insecureEndpoint("\(url.forMessages) has no host; use an https URL.")
        }
        if scheme == "https" { return }
        if scheme == "http" && isLoopback(host: host) {
            if allowingInsecureLoopback { return }
            throw BearerError.insecureEndpoint(
                "\(url.forMessages) is plain http. Use https, or allow insecure loopback endpoints "
                    + "(for local testing only)."
            )
        }
        throw BearerError.insecureEndpoint(
            "\(url.forMessages) is not https; credentials are only sent over https."
        )
    }

    /// Checks that a token may be stamped on a request to `url`.
    ///
    /// - Parameters:
    ///   - url: The request's URL.
    ///   - allowedHosts: The hosts tokens may go to, or `nil` for any https host. An entry is a host
    ///     name or a wildcard for its subdomains (`*.googleapis.com`, not `googleapis.com` itself).
    ///   - allowingInsecureLoopback: Whether http to a loopback host is acceptable.
    /// - Throws: ``BearerError/Kind/insecureEndpoint`` for a URL that is not https (or allowed
    ///   loopback http); ``BearerError/Kind/hostNotAllowed`` for a host outside `allowedHosts`.
    static func checkDestination(
        _ url: URL?,
        allowedHosts: [String]?,
        allowingInsecureLoopback: Bool
    ) throws {
        guard let url else {
            throw BearerError.invalidConfiguration("The request has no URL, so no token was added.")
        }
        try check(url, allowingInsecureLoopback: allowingInsecureLoopback)
        guard let allowedHosts else { return }
        let host = url.host.map(canonicalHost) ?? ""
        let allowed = allowedHosts.contains { pattern in
            guard pattern.hasPrefix("*.") else { return host == canonicalHost(pattern) }
            let domain = String(pattern.dropFirst(2))
            return host != canonicalHost(domain) && Self.host(host, isWithin: domain)
        }
        guard allowed else {
            throw BearerError.hostNotAllowed(
                "\(host) is not among the hosts this session sends tokens to "
                    + "(\(allowedHosts.joined(separator: ", "))); no token was added. "
                    + "Add it to the configuration's allowedHosts if it should get one."
            )
        }
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
    static func host(_ host: String?, isWithin domain: String) -> Bool {
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

extension URL {
    /// The URL without user information, query or fragment, which may hold secrets: fit for a message.
    var forMessages: String {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return "the URL" }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return components.string ?? "the URL"
    }
}
