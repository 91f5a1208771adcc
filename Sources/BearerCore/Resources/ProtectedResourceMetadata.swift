#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What a protected resource says about itself (RFC 9728 §2): which authorization servers issue
/// its tokens, and which scopes it knows.
public struct ProtectedResourceMetadata: Sendable, Hashable {
    /// The resource the document describes; the same resource as the one asked for (RFC 9728 §3.3).
    public let resource: ProtectedResource
    /// The issuers of the authorization servers that issue tokens for it, in the document's order.
    public let authorizationServers: [URL]
    /// The scopes it uses (`scopes_supported`), when it says.
    public let scopesSupported: [String]?
    /// Its human-readable name (`resource_name`), when it gives one.
    public let resourceName: String?

    /// Reads a metadata document, checking it describes `expected`.
    ///
    /// - Parameters:
    ///   - document: The JSON document.
    ///   - expected: The resource asked for.
    ///   - allowingInsecureLoopback: Whether http issuers on a loopback address are acceptable.
    /// - Throws: ``BearerError/Kind/invalidDiscoveryDocument`` for a document that is not a JSON
    ///   object, lacks `resource` or names no usable authorization server;
    ///   ``BearerError/Kind/resourceMismatch`` when it describes another resource.
    public init(document: Data, describing expected: ProtectedResource, allowingInsecureLoopback: Bool = false) throws {
        guard let fields = try? JSONDecoder().decodeRefusingDeepNesting([String: JSONValue].self, from: document)
        else {
            throw BearerError.invalidDiscoveryDocument("The protected resource metadata is not a JSON object.")
        }
        guard let named = fields["resource"]?.stringValue, let namedURL = URL(string: named) else {
            throw BearerError.invalidDiscoveryDocument(
                "The protected resource metadata has no \"resource\" (RFC 9728 §2).")
        }
        guard expected.isSame(as: namedURL) else {
            throw BearerError.resourceMismatch(
                "The protected resource metadata describes \(namedURL.forMessages), not \(expected) (RFC 9728 "
                    + "§3.3); it was not used, and nothing was sent to the servers it names."
            )
        }
        guard case .array(let servers)? = fields["authorization_servers"] else {
            throw BearerError.invalidDiscoveryDocument(
                "The protected resource metadata of \(expected) names no authorization server "
                    + "(authorization_servers), so Bearer cannot tell where to sign in.")
        }
        var issuers: [URL] = []
        var refusals: [String] = []
        for server in servers {
            guard let text = server.stringValue, let issuer = URL(string: text) else { continue }
            do {
                try EndpointSecurity.check(issuer, allowingInsecureLoopback: allowingInsecureLoopback)
                issuers.append(issuer)
            } catch let error as BearerError {
                refusals.append(error.reason)
            }
        }
        guard !issuers.isEmpty else {
            throw BearerError.invalidDiscoveryDocument(
                "The protected resource metadata of \(expected) names no usable authorization server"
                    + (refusals.isEmpty ? "." : ": " + refusals.joined(separator: " ")))
        }
        self.resource = expected
        self.authorizationServers = issuers
        self.scopesSupported = fields["scopes_supported"].flatMap(Self.strings)
        self.resourceName = fields["resource_name"]?.stringValue
    }

    /// The strings of a JSON array, or `nil` when it is not one.
    private static func strings(_ value: JSONValue) -> [String]? {
        guard case .array(let values) = value else { return nil }
        return values.compactMap(\.stringValue)
    }
}
