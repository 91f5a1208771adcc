#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// How a derived session is made from another one, saved with it (``AuthState/derivation``) so
/// that it is made again, from a fresh parent, whenever it is stale.
///
/// ```swift
/// // An MCP server's session from the company's identity provider (enterprise-managed authorization):
/// let mcp = try await AuthSession.derive(
///     .identityAssertion(from: "work", scopes: ["files:read"]),
///     at: mcpServer, as: mcpClient, resource: resource, store: store)
/// ```
///
/// The recipe names the parent by its key and never holds the parent's token: it is read from the
/// parent, refreshed first where needed, each time the derived session is made.
public struct SessionDerivation: Sendable, Hashable, Codable {
    /// How the derived session's tokens are obtained.
    public enum Method: String, Sendable, Hashable, Codable {
        /// One token exchange (RFC 8693) at the derived session's server, with the parent's token as
        /// the subject token.
        case tokenExchange = "token-exchange"
        /// MCP's enterprise-managed authorization: the parent's server (the identity provider)
        /// exchanges the parent's ID token for an ID-JAG naming the derived session's server and
        /// resource; that server's JWT-bearer grant (RFC 7523) then issues the session's tokens.
        case identityAssertion = "id-jag"
    }

    /// The key of the session the tokens are derived from, in the same store; `nil` for tokens
    /// derived from a workload's platform token (``workloadToken``).
    public let parentKey: String?
    /// Where the platform token comes from, for workload identity federation: a file such as a
    /// Kubernetes projected service-account token or a CI job's OIDC token; `nil` for tokens
    /// derived from a parent session.
    public let workloadToken: WorkloadTokenSource?
    /// The service account whose token is asked for with the exchanged one (Google's
    /// `service_account_impersonation_url`); `nil` to use the exchanged token itself.
    public let serviceAccountImpersonation: ServiceAccountImpersonation?
    /// How the tokens are obtained.
    public let method: Method
    /// Which of the parent's tokens is sent: ``TokenTypeIdentifier/accessToken`` or
    /// ``TokenTypeIdentifier/idToken``.
    public let subjectTokenType: TokenTypeIdentifier
    /// The kind of token asked for in a token exchange; `nil` leaves it to the server.
    public let requestedTokenType: TokenTypeIdentifier?
    /// The services the tokens are for (`audience`).
    public let audiences: [String]
    /// The resources the tokens are for (`resource`), beside the session's own protected resource.
    public let resources: [URL]
    /// The scopes asked for.
    public let scopes: [String]

    private init(
        parentKey: String?, workloadToken: WorkloadTokenSource? = nil,
        serviceAccountImpersonation: ServiceAccountImpersonation? = nil, method: Method,
        subjectTokenType: TokenTypeIdentifier, requestedTokenType: TokenTypeIdentifier?, audiences: [String],
        resources: [URL], scopes: [String]
    ) {
        self.parentKey = parentKey
        self.workloadToken = workloadToken
        self.serviceAccountImpersonation = serviceAccountImpersonation
        self.method = method
        self.subjectTokenType = subjectTokenType
        self.requestedTokenType = requestedTokenType
        self.audiences = audiences
        self.resources = resources
        self.scopes = scopes
    }

    /// Tokens from a token exchange (RFC 8693) at the derived session's server, of the parent's
    /// access or ID token.
    ///
    /// - Parameters:
    ///   - parentKey: The key of the parent session.
    ///   - subjectTokenType: Which of the parent's tokens is sent: its access token (the default)
    ///     or its ID token.
    ///   - requestedTokenType: The kind of token asked for: an access token by default, or a JWT.
    ///   - audiences: The services the tokens are for.
    ///   - resources: The resources the tokens are for.
    ///   - scopes: The scopes asked for.
    /// - Returns: The recipe.
    public static func tokenExchange(
        from parentKey: String,
        subjectTokenType: TokenTypeIdentifier = .accessToken,
        requestedTokenType: TokenTypeIdentifier? = .accessToken,
        audiences: [String] = [],
        resources: [URL] = [],
        scopes: [String] = []
    ) -> Self {
        Self(
            parentKey: parentKey, method: .tokenExchange, subjectTokenType: subjectTokenType,
            requestedTokenType: requestedTokenType, audiences: audiences, resources: resources, scopes: scopes)
    }

    /// Tokens from MCP's enterprise-managed authorization: the parent's identity provider
    /// exchanges the parent's ID token for an ID-JAG, which the derived session's server takes in
    /// a JWT-bearer grant.
    ///
    /// - Parameters:
    ///   - parentKey: The key of the parent session, an OpenID Connect sign-in at the identity
    ///     provider whose client may exchange ID tokens for ID-JAGs.
    ///   - scopes: The scopes asked for at the derived session's server.
    /// - Returns: The recipe.
    public static func identityAssertion(from parentKey: String, scopes: [String] = []) -> Self {
        Self(
            parentKey: parentKey, method: .identityAssertion, subjectTokenType: .idToken,
            requestedTokenType: .identityAssertion, audiences: [], resources: [], scopes: scopes)
    }

    /// Tokens for a workload (a CI job, a pod, a VM) from its platform token, exchanged at a
    /// security token service (workload identity federation), then, where a service account is
    /// named, that account's token: what Google's `external_account` credentials describe (see
    /// ``GoogleExternalAccount``).
    ///
    /// - Parameters:
    ///   - token: Where the platform token is read, each time the session is made.
    ///   - subjectTokenType: What the platform token is: a JWT by default, or an ID token.
    ///   - audience: The audience the service expects (at Google, the workload identity pool
    ///     provider's resource name).
    ///   - scopes: The scopes asked for.
    ///   - serviceAccountImpersonation: The service account to impersonate with the exchanged token.
    /// - Returns: The recipe.
    public static func workloadIdentity(
        token: WorkloadTokenSource,
        subjectTokenType: TokenTypeIdentifier = .jwt,
        audience: String,
        scopes: [String] = [],
        serviceAccountImpersonation: ServiceAccountImpersonation? = nil
    ) -> Self {
        Self(
            parentKey: nil, workloadToken: token, serviceAccountImpersonation: serviceAccountImpersonation,
            method: .tokenExchange, subjectTokenType: subjectTokenType, requestedTokenType: .accessToken,
            audiences: [audience], resources: [], scopes: scopes)
    }

    /// Refuses a recipe that cannot be followed.
    ///
    /// - Throws: ``BearerError/Kind/invalidConfiguration``: a parent that is the session itself,
    ///   a subject token that is neither the parent's access token nor its ID token, or a token
    ///   exchange that asks for something other than an access token or a JWT.
    func check(derivedKey: String) throws {
        if let parentKey {
            guard parentKey != derivedKey, !parentKey.isEmpty else {
                throw BearerError.invalidConfiguration(
                    "A session cannot be derived from itself; name another parent key. Nothing was sent.")
            }
        } else if workloadToken == nil {
            throw BearerError.invalidConfiguration(
                "A derived session needs a parent session or a workload token; nothing was sent.")
        }
        guard workloadToken != nil || subjectTokenType == .accessToken || subjectTokenType == .idToken else {
            throw BearerError.invalidConfiguration(
                "A derived session sends its parent's access token or ID token, not \(subjectTokenType); "
                    + "nothing was sent.")
        }
        if method == .tokenExchange, let requestedTokenType, !requestedTokenType.isAccessToken {
            throw BearerError.invalidConfiguration(
                "A derived session's tokens are access tokens: ask for \(TokenTypeIdentifier.accessToken) or "
                    + "\(TokenTypeIdentifier.jwt), not \(requestedTokenType). Use "
                    + "AuthorizationServerClient.exchangeToken(_:at:as:) for other tokens. Nothing was sent.")
        }
    }
}

extension SessionDerivation {
    /// The key a derived session is saved under: `<parent>+derived-<16 hexadecimal digits>`, a
    /// hash of the server, client, resource and recipe, so the same recipe always finds its
    /// session, and the parent's sign-out finds every session derived from it.
    func derivedKey(at server: AuthorizationServer, as client: Client, resource: ProtectedResource?) -> String {
        let name = [
            server.issuer.absoluteString, client.id, resource?.description ?? "", method.rawValue,
            workloadToken?.path ?? "", serviceAccountImpersonation?.url.absoluteString ?? "",
            subjectTokenType.rawValue, requestedTokenType?.rawValue ?? "", audiences.joined(separator: " "),
            resources.map(\.absoluteString).joined(separator: " "), scopes.joined(separator: " "),
        ].joined(separator: "\n")
        return Self.derivedKeyPrefix(of: parentKey ?? Self.workloadKey) + ResourceSessionKeys.digest(name)
    }

    /// What the keys of workload sessions start with, before `+derived-`.
    static let workloadKey = "workload"

    /// What the keys of the sessions derived from `parentKey` start with.
    static func derivedKeyPrefix(of parentKey: String) -> String { parentKey + "+derived-" }
}
