// The token hooks of the Model Context Protocol Swift SDK (`modelcontextprotocol/swift-sdk`,
// module `MCP`), as its Sources/MCP/Base/Transports/OAuth.swift and HTTPClientTransport declare
// them: enough for scripts/check-docs to compile docs/resources.md's adapter without adding the
// SDK as a dependency. Bodies do nothing; only the signatures matter.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// OAuth 2.0 tokens for authenticated requests (RFC 6749 §5.1).
public struct OAuthTokens: Sendable, Codable, Equatable {
    /// The access token.
    public let accessToken: String
    /// The token type, `Bearer` for MCP.
    public let tokenType: String
    /// The access token's lifetime in seconds.
    public let expiresIn: Int?
    /// The granted scope, space-separated.
    public let scope: String?
    /// The refresh token.
    public let refreshToken: String?

    /// Creates tokens.
    public init(
        accessToken: String,
        tokenType: String = "Bearer",
        expiresIn: Int? = nil,
        scope: String? = nil,
        refreshToken: String? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.scope = scope
        self.refreshToken = refreshToken
    }
}

/// What a `401` said, from its `WWW-Authenticate` header.
public struct UnauthorizedContext: Sendable {
    /// The `resource_metadata` URL (RFC 9728).
    public let resourceMetadataURL: URL?
    /// The `scope` the server asked for.
    public let scope: String?
    /// The whole `WWW-Authenticate` value.
    public let wwwAuthenticate: String?

    /// Creates a context.
    public init(resourceMetadataURL: URL? = nil, scope: String? = nil, wwwAuthenticate: String? = nil) {
        self.resourceMetadataURL = resourceMetadataURL
        self.scope = scope
        self.wwwAuthenticate = wwwAuthenticate
    }
}

/// The SDK's hook: the transport asks it for tokens before each request, and calls
/// `handleUnauthorized` on a `401`, then retries.
public protocol OAuthClientProvider: Sendable {
    /// The current tokens, refreshed when needed; `nil` when not signed in.
    func tokens() async throws -> OAuthTokens?
    /// Authorizes after a `401`, returning new tokens.
    func handleUnauthorized(context: UnauthorizedContext) async throws -> OAuthTokens
}

/// The SDK's Streamable HTTP client transport, reduced to the initializer that takes the hook.
public actor HTTPClientTransport {
    /// Creates a transport for `endpoint`.
    public init(
        endpoint: URL,
        streaming: Bool = true,
        sseInitializationTimeout: TimeInterval = 10,
        requestModifier: @escaping (URLRequest) -> URLRequest = { $0 },
        authProvider: (any OAuthClientProvider)? = nil
    ) {}
}
