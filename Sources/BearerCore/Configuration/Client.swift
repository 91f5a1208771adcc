#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A registered OAuth 2.0 client (RFC 6749 §2): its identifier, optional secret and redirect URI.
///
/// A client that signs in with ``LoopbackAgent`` (whose redirect URI carries the port it listens
/// on) or with the device flow (which has no redirect) needs no redirect URI:
///
/// ```swift
/// let tool = Client(id: "my-tool")
/// let app = Client(id: "my-app", redirectURI: URL(string: "com.example.app:/oauth2callback"))
/// ```
public struct Client: Sendable, Hashable, Codable {
    /// The client identifier (RFC 6749 §2.2).
    public var id: String
    /// The client secret, for confidential clients (RFC 6749 §2.3.1); native apps usually have none.
    public var secret: ClientSecret?
    /// The redirect URI registered for this client (RFC 6749 §3.1.2), used by agents that bring
    /// none of their own (an in-app sheet, the default browser); `nil` for a client that signs in
    /// only with ``LoopbackAgent`` or the device flow.
    public var redirectURI: URL?
    /// How the client proves its identity at the token and revocation endpoints, when it was
    /// registered with one (RFC 7591 `token_endpoint_auth_method`); `nil` for Bearer's default:
    /// HTTP Basic with a secret (form fields at Google), `client_id` alone without one.
    public var authentication: ClientAuthentication?
    /// When the secret stops working (RFC 7591 `client_secret_expires_at`); `nil` when it does not
    /// expire or the client has none. A client registered by Bearer is registered again then.
    public var secretExpiresAt: Date?
    /// The token that manages a dynamically registered client (RFC 7592), when the server issued
    /// one; kept so that the registration can be read, changed or deleted later.
    public var registrationAccessToken: RegistrationAccessToken?
    /// Where the registration is managed with ``registrationAccessToken`` (RFC 7592 §3).
    public var registrationClientURI: URL?

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - id: The client identifier.
    ///   - secret: The client secret, if the client is confidential.
    ///   - redirectURI: The registered redirect URI; `nil` when only ``LoopbackAgent`` or the
    ///     device flow is used.
    ///   - authentication: How it authenticates, when registered with a method; `nil` for the default.
    ///   - secretExpiresAt: When the secret expires, if it does.
    ///   - registrationAccessToken: The token that manages a registered client, if one was issued.
    ///   - registrationClientURI: Where that registration is managed.
    public init(
        id: String,
        secret: ClientSecret? = nil,
        redirectURI: URL? = nil,
        authentication: ClientAuthentication? = nil,
        secretExpiresAt: Date? = nil,
        registrationAccessToken: RegistrationAccessToken? = nil,
        registrationClientURI: URL? = nil
    ) {
        self.id = id
        self.secret = secret
        self.redirectURI = redirectURI
        self.authentication = authentication
        self.secretExpiresAt = secretExpiresAt
        self.registrationAccessToken = registrationAccessToken
        self.registrationClientURI = registrationClientURI
    }

    /// A Google iOS (installed-app) client, whose redirect URI is the reversed client ID, in lower
    /// case, followed by `:/oauth2callback` (one slash).
    ///
    /// `123-abc.apps.googleusercontent.com` redirects to `com.googleusercontent.apps.123-abc:/oauth2callback`.
    /// The scheme is lowercased as GoogleSignIn does (URI schemes are case-insensitive, RFC 3986
    /// §3.1), so a client ID typed in any case gives the same redirect URI.
    ///
    /// - Parameter clientID: The client ID from Google Cloud Console.
    /// - Returns: The client.
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when the reversed ID is not a valid URI scheme.
    public static func googleiOS(clientID: String) throws -> Client {
        let scheme = clientID.split(separator: ".", omittingEmptySubsequences: false).reversed().joined(separator: ".")
            .lowercased()
        guard isValidScheme(scheme), let redirectURI = URL(string: scheme + ":/oauth2callback") else {
            throw BearerError.invalidConfiguration(
                "\"\(clientID)\" does not look like a Google iOS client ID (…apps.googleusercontent.com)."
            )
        }
        return Client(id: clientID, redirectURI: redirectURI)
    }

    /// Whether `scheme` is `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (RFC 3986 §3.1), with no empty labels.
    private static func isValidScheme(_ scheme: String) -> Bool {
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter else { return false }
        if scheme.hasSuffix(".") || scheme.contains("..") { return false }
        return scheme.unicodeScalars.allSatisfy {
            $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)
        }
    }
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}

/// How a client authenticates at the token, pushed authorization, revocation and device
/// authorization endpoints (RFC 7591 §2 `token_endpoint_auth_method`, RFC 6749 §2.3.1).
public enum ClientAuthentication: String, Sendable, Hashable, Codable {
    /// A public client: `client_id` in the form, no secret.
    case none
    /// The id and secret in an HTTP Basic `Authorization` header.
    case clientSecretBasic = "client_secret_basic"
    /// The id and secret as `client_id` and `client_secret` form fields.
    case clientSecretPost = "client_secret_post"
    /// `client_id` and a ``ClientAssertion`` signed with the client's key (RFC 7523 §2.2, OpenID
    /// Connect Core §9), from ``AuthSession/Configuration/clientKeys``; no secret is sent.
    case privateKeyJWT = "private_key_jwt"
}
