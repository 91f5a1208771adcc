/// What kind of security token a token exchange takes or gives (RFC 8693 §3): a URI such as
/// `urn:ietf:params:oauth:token-type:access_token`.
///
/// ```swift
/// let type: TokenTypeIdentifier = .idToken
/// ```
public struct TokenTypeIdentifier: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The URI, as sent.
    public let rawValue: String

    /// Wraps a token type URI.
    ///
    /// - Parameter rawValue: The URI.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps a token type URI written in the code.
    ///
    /// - Parameter value: The URI.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The URI.
    public var description: String { rawValue }

    /// An OAuth 2.0 access token (RFC 8693 §3).
    public static let accessToken: Self = "urn:ietf:params:oauth:token-type:access_token"
    /// An OAuth 2.0 refresh token (RFC 8693 §3).
    public static let refreshToken: Self = "urn:ietf:params:oauth:token-type:refresh_token"
    /// An OpenID Connect ID token (RFC 8693 §3).
    public static let idToken: Self = "urn:ietf:params:oauth:token-type:id_token"
    /// A JWT (RFC 8693 §3), as workload identity platforms issue them.
    public static let jwt: Self = "urn:ietf:params:oauth:token-type:jwt"
    /// An Identity Assertion JWT Authorization Grant (ID-JAG), which an identity provider issues
    /// for another authorization server's JWT-bearer grant: MCP's enterprise-managed authorization.
    public static let identityAssertion: Self = "urn:ietf:params:oauth:token-type:id-jag"

    /// Whether a token of this type is presented to resources as an access token: an access token,
    /// or a JWT (what security token services such as Google's answer for workload identity).
    var isAccessToken: Bool { self == .accessToken || self == .jwt }
}
