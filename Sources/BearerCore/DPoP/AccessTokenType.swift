/// How a request presents an access token (RFC 6749 §7.1): the `token_type` the server issued it
/// with.
public enum AccessTokenType: String, Sendable, Hashable, Codable {
    /// `Authorization: Bearer <token>` (RFC 6750 §2.1).
    case bearer = "Bearer"
    /// `Authorization: DPoP <token>` with a `DPoP` proof signed by the grant's key (RFC 9449 §7.1).
    case dpop = "DPoP"

    /// The type a token answer names, compared case-insensitively (RFC 6749 §5.1); `nil` for
    /// another type.
    init?(answered name: String) {
        switch name.lowercased() {
        case "bearer": self = .bearer
        case "dpop": self = .dpop
        default: return nil
        }
    }

    /// Decodes a saved type, in any case.
    ///
    /// - Throws: When it is neither `Bearer` nor `DPoP`.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let type = AccessTokenType(answered: name) else {
            throw BearerError.unreadableSession("The saved token type \(name.printable) is neither Bearer nor DPoP.")
        }
        self = type
    }
}
