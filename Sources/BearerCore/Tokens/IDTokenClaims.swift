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
    /// `name`.
    public var name: String?
    /// Every claim, as it came.
    package var all: [String: JSONValue]

    /// Reads the claims from a decoded payload.
    ///
    /// - Parameter json: The payload.
    /// - Throws: ``BearerError/Kind/invalidIDToken`` when a required claim is missing or malformed.
    package init(json: [String: JSONValue]) throws {
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
        self.all = json
    }
}
