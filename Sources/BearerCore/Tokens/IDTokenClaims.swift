#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The claims of an ID token (OpenID Connect Core §2, §5.1) that Bearer reads, and the rest as they came.
public struct IDTokenClaims: Sendable, Hashable {
    /// `iss`: the issuer.
    public var issuer: String
    /// `sub`: the user's stable identifier at the issuer.
    public var subject: String
    /// `aud`: the audiences (a single string is read as one).
    public var audience: [String]
    /// `azp`: the authorized party.
    public var authorizedParty: String?
    /// `exp`: the expiry.
    public var expiresAt: Date
    /// `iat`: the issue time.
    public var issuedAt: Date
    /// `nonce`.
    public var nonce: String?
    /// `email`.
    public var email: String?
    /// `email_verified`, read from a boolean or from the strings `"true"` / `"false"`.
    public var emailVerified: Bool?
    /// `name`: the full name, when the `profile` scope was granted.
    public var name: String?
    /// `given_name`.
    public var givenName: String?
    /// `family_name`.
    public var familyName: String?
    /// `picture`: the address of the user's profile picture, when it is https.
    public var picture: URL?
    /// `hd`: the Google Workspace domain of the account, absent for a consumer account.
    public var hostedDomain: String?
    /// `sid`: the provider's session this token came from (OpenID Connect Back-Channel Logout 1.0
    /// §2.1), which a logout token names when the user signs out there.
    public var sessionID: String?
    /// Every claim, as it came.
    var all: [String: JSONValue]

    /// Any claim of the token, as it came, including those without a property here.
    ///
    /// ```swift
    /// let locale = claims["locale"]?.stringValue
    /// ```
    ///
    /// - Parameter name: The claim's name, such as `locale` or `https://example.com/roles`.
    /// - Returns: Its value, or `nil` when the token has no such claim.
    public subscript(_ name: String) -> JSONValue? { all[name] }

    /// Reads the claims from a decoded payload.
    ///
    /// - Parameter json: The payload.
    /// - Throws: ``BearerError/Kind/invalidIDToken`` when a required claim is missing or malformed.
    init(json: [String: JSONValue]) throws {
        func required(_ name: String) throws -> String {
            guard let value = json[name]?.stringValue, !value.isEmpty else {
                throw BearerError.invalidIDToken("The ID token has no \"\(name)\" claim.")
            }
            return value
        }
        func time(_ name: String) throws -> Date {
            guard case .number(let seconds)? = json[name], seconds.isFinite else {
                throw BearerError.invalidIDToken("The ID token's \"\(name)\" claim is not a time in seconds.")
            }
            return Date(timeIntervalSince1970: seconds)
        }
        self.issuer = try required("iss")
        self.subject = try required("sub")
        switch json["aud"] {
        case .string(let audience)?:
            self.audience = [audience]
        case .array(let audiences)?:
            self.audience = audiences.compactMap(\.stringValue)
        default:
            throw BearerError.invalidIDToken("The ID token has no \"aud\" claim.")
        }
        self.authorizedParty = json["azp"]?.stringValue
        self.expiresAt = try time("exp")
        self.issuedAt = try time("iat")
        self.nonce = json["nonce"]?.stringValue
        self.email = json["email"]?.stringValue
        self.emailVerified = json["email_verified"]?.boolValue
        self.name = json["name"]?.stringValue
        self.givenName = json["given_name"]?.stringValue
        self.familyName = json["family_name"]?.stringValue
        self.picture = json["picture"]?.stringValue.flatMap(Self.webAddress)
        self.hostedDomain = json["hd"]?.stringValue
        self.sessionID = json["sid"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        self.all = json
    }

    /// `text` as an https address with a host, or `nil`: an app loads the picture, so an address it
    /// should not load (another scheme, plain http) is not kept.
    static func webAddress(_ text: String) -> URL? {
        guard let url = URL(string: text), url.scheme?.lowercased() == "https", url.host?.isEmpty == false
        else { return nil }
        return url
    }
}
