#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A registered OAuth 2.0 client (RFC 6749 §2): its identifier, optional secret and redirect URI.
public struct Client: Sendable, Hashable, Codable {
    /// The client identifier (RFC 6749 §2.2).
    public var id: String
    /// The client secret, for confidential clients (RFC 6749 §2.3.1); native apps usually have none.
    public var secret: ClientSecret?
    /// The redirect URI registered for this client (RFC 6749 §3.1.2).
    public var redirectURI: URL

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - id: The client identifier.
    ///   - secret: The client secret, if the client is confidential.
    ///   - redirectURI: The registered redirect URI.
    public init(id: String, secret: ClientSecret? = nil, redirectURI: URL) {
        self.id = id
        self.secret = secret
        self.redirectURI = redirectURI
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
