#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A protected resource, named by its canonical URI: the `resource` Bearer sends with every
/// authorization, code exchange and refresh of its sessions (RFC 8707 §2), and the only place
/// their tokens go.
///
/// The canonical form has a lowercase scheme and host, no default port, no fragment and no
/// trailing slash (`https://mcp.example.com/mcp`), as the Model Context Protocol's authorization
/// profile asks.
///
/// ```swift
/// let resource = try ProtectedResource(URL(string: "https://mcp.example.com/mcp")!)
/// resource.covers(URL(string: "https://mcp.example.com/mcp/tools")!)  // true
/// ```
public struct ProtectedResource: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The canonical URI.
    public let identifier: URL
    /// The identifier's lowercase scheme, host and port, and its path without a trailing slash.
    private let origin: String
    private let path: String

    /// Names a resource by `url`, in canonical form.
    ///
    /// - Parameters:
    ///   - url: The resource's URL, such as an MCP server's endpoint.
    ///   - allowingInsecureLoopback: Whether an http URL on a loopback address is acceptable
    ///     (tests and local development only).
    /// - Throws: ``BearerError/Kind/insecureEndpoint`` for a URL without a host, or that is not
    ///   https (or allowed loopback http); ``BearerError/Kind/invalidConfiguration`` for one with a
    ///   fragment, user information or a `.` or `..` path segment.
    public init(_ url: URL, allowingInsecureLoopback: Bool = false) throws {
        try EndpointSecurity.check(url, allowingInsecureLoopback: allowingInsecureLoopback)
        guard let parts = Self.canonicalParts(of: url) else {
            throw BearerError.invalidConfiguration(
                "\(url.forMessages) cannot name a protected resource: it needs a scheme and a host, and no "
                    + "fragment, user information or . and .. path segments (RFC 8707 §2)."
            )
        }
        guard let identifier = URL(string: parts.origin + parts.path + parts.query) else {
            throw BearerError.invalidConfiguration("\(url.forMessages) cannot name a protected resource.")
        }
        self.identifier = identifier
        self.origin = parts.origin
        self.path = parts.path
    }

    /// The canonical URI, as sent in `resource`.
    public var description: String { identifier.absoluteString }

    /// Whether a request to `url` is a request to this resource: the same scheme, host and port,
    /// and the resource's path or a path below it (`/mcp` covers `/mcp` and `/mcp/tools`, not
    /// `/mcpx`, `/admin` or `/mcp/../admin`). The query is not compared.
    ///
    /// - Parameter url: A request's URL.
    /// - Returns: `true` when a token issued for this resource may be sent to `url`.
    public func covers(_ url: URL) -> Bool {
        guard let parts = Self.canonicalParts(of: url), parts.origin == origin else { return false }
        return path.isEmpty || parts.path == path || parts.path.hasPrefix(path + "/")
    }

    /// Whether `other` names the same resource once both are canonical (RFC 9728 §3.3 compares the
    /// document's `resource` with the one asked for).
    func isSame(as other: URL) -> Bool {
        Self.canonicalParts(of: other).map { $0.origin + $0.path + $0.query } == identifier.absoluteString
    }

    /// The RFC 9728 §3 metadata URLs to try, in order: the well-known prefix inserted before the
    /// resource's path, then at the root (the same when the resource has no path).
    var metadataURLs: [URL] {
        let pathInserted = URL(string: origin + "/.well-known/oauth-protected-resource" + path)
        let root = URL(string: origin + "/.well-known/oauth-protected-resource")
        return [pathInserted, path.isEmpty ? nil : root].compactMap { $0 }
    }

    /// Decodes a resource from its canonical URI.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let url = URL(string: text), let parts = Self.canonicalParts(of: url),
            let identifier = URL(string: parts.origin + parts.path + parts.query)
        else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "Not a resource URI."))
        }
        self.identifier = identifier
        self.origin = parts.origin
        self.path = parts.path
    }

    /// Encodes the canonical URI.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier.absoluteString)
    }

    /// The canonical origin (`scheme://host[:port]`), path (no trailing slash) and query (`?…` or
    /// empty) of `url`; `nil` without a scheme or host, or with a fragment or user information.
    private static func canonicalParts(of url: URL) -> (origin: String, path: String, query: String)? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), let host = components.percentEncodedHost?.lowercased(),
            !host.isEmpty, components.fragment == nil, components.user == nil, components.password == nil
        else { return nil }
        var origin = scheme + "://" + host
        if let port = components.port, !(scheme == "https" && port == 443), !(scheme == "http" && port == 80) {
            origin += ":\(port)"
        }
        var path = components.percentEncodedPath
        // A `.` or `..` segment, plain or percent-encoded, would let `/mcp/../admin` pass for a
        // path below `/mcp`: such a URL names no resource and is covered by none.
        let dotSegments: Set<String> = [".", "..", "%2e", "%2e%2e", ".%2e", "%2e."]
        guard !path.split(separator: "/").contains(where: { dotSegments.contains($0.lowercased()) }) else {
            return nil
        }
        while path.hasSuffix("/") { path.removeLast() }
        return (origin, path, components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }
}
