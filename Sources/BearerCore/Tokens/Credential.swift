/// A secret string (a token, a code, a client secret) whose descriptions never show its value.
///
/// `description`, `debugDescription`, `String(reflecting:)`, `dump` and string interpolation all print
/// `TypeName(<redacted>)`. Read ``value`` only where the secret must go: an HTTP header, a form body,
/// a store.
public protocol Credential: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The secret itself.
    var value: String { get }

    /// Wraps a secret.
    ///
    /// - Parameter value: The secret.
    init(_ value: String)
}

extension Credential {
    /// `TypeName(<redacted>)`.
    public var description: String { "\(Self.self)(<redacted>)" }

    /// The same as ``description``, so debugging output shows no secret.
    public var debugDescription: String { description }

    /// A mirror with no children, so `dump` shows no secret.
    public var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .struct) }

    /// Decodes the secret from a single string.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the secret as a single string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// An OAuth 2.0 access token (RFC 6749 §1.4), sent as `Authorization: Bearer` (RFC 6750 §2.1).
public struct AccessToken: Credential {
    /// The token.
    public let value: String

    /// Wraps a token.
    ///
    /// - Parameter value: The token.
    public init(_ value: String) {
        self.value = value
    }

    /// The `Authorization` header value that presents the token (RFC 6750 §2.1), or `nil` for an
    /// empty token, which authorizes nothing: the header is then removed rather than sent as
    /// `Bearer ` alone. Every way of stamping a request uses this one rule.
    @_spi(Bridge) public var authorizationHeaderValue: String? {
        value.isEmpty ? nil : "Bearer " + value
    }
}

/// An OAuth 2.0 refresh token (RFC 6749 §1.5), sent only to the token endpoint.
public struct RefreshToken: Credential {
    /// The token.
    public let value: String

    /// Wraps a token.
    ///
    /// - Parameter value: The token.
    public init(_ value: String) {
        self.value = value
    }
}

/// An OAuth 2.0 client secret (RFC 6749 §2.3.1).
public struct ClientSecret: Credential {
    /// The secret.
    public let value: String

    /// Wraps a secret.
    ///
    /// - Parameter value: The secret.
    public init(_ value: String) {
        self.value = value
    }
}

/// A registration access token (RFC 7592 §3), which manages a dynamically registered client at
/// its server's `registration_client_uri`; kept with the client, never sent anywhere else.
public struct RegistrationAccessToken: Credential {
    /// The token.
    public let value: String

    /// Wraps a token.
    ///
    /// - Parameter value: The token.
    public init(_ value: String) {
        self.value = value
    }
}

/// An authorization code (RFC 6749 §4.1.2), exchanged once for tokens.
public struct AuthorizationCode: Credential {
    /// The code.
    public let value: String

    /// Wraps a code.
    ///
    /// - Parameter value: The code.
    public init(_ value: String) {
        self.value = value
    }
}

/// A security token given to or issued by a token exchange (RFC 8693 §1): a subject or actor
/// token, or an identity assertion (ID-JAG) for a JWT-bearer grant (RFC 7523 §2.1).
public struct SecurityToken: Credential {
    /// The token.
    public let value: String

    /// Wraps a token.
    ///
    /// - Parameter value: The token.
    public init(_ value: String) {
        self.value = value
    }
}
