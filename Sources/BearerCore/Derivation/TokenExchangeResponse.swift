#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A token exchange's answer (RFC 8693 §2.2.1): the token issued and what it is.
///
/// An answer without `issued_token_type`, without a token of bearer-token characters, or whose
/// `token_type` is none of `Bearer`, `DPoP` and `N_A` (any case) is refused with
/// ``BearerError/Kind/invalidResponse``. Its descriptions never show a token.
public struct TokenExchangeResponse: Sendable, Hashable {
    /// The token issued (the answer's `access_token`, whatever its type).
    public let issuedToken: SecurityToken
    /// What ``issuedToken`` is.
    public let issuedTokenType: TokenTypeIdentifier
    /// How the token is presented: `Bearer`, `DPoP`, or `N_A` for a token that is not an access
    /// token (an ID-JAG, for one), as sent.
    public let tokenType: String
    /// The issued token's lifetime in seconds from receipt, when the server said.
    public let expiresIn: TimeInterval?
    /// The scopes of the issued token, when the server listed them.
    public let scopes: [String]?
    /// A refresh token, when the server issued one with the token.
    public let refreshToken: RefreshToken?
    /// The answer as it came, from which a session is made.
    let json: [String: JSONValue]

    /// Reads a decoded answer.
    ///
    /// - Parameter json: The JSON object.
    /// - Throws: ``BearerError/Kind/invalidResponse``, naming the field at fault.
    init(json: [String: JSONValue]) throws {
        guard let issuedType = json["issued_token_type"]?.stringValue, !issuedType.isEmpty else {
            throw BearerError.invalidResponse(
                "The token exchange's answer has no issued_token_type (RFC 8693 §2.2.1); the server is misconfigured.")
        }
        guard let token = json["access_token"]?.stringValue, !token.isEmpty, B64Token.isValid(token) else {
            throw BearerError.invalidResponse(
                "The token exchange's answer has no access_token of bearer-token characters (RFC 8693 §2.2.1); "
                    + "nothing was kept.")
        }
        guard let tokenType = json["token_type"]?.stringValue,
            AccessTokenType(answered: tokenType) != nil || tokenType.lowercased() == "n_a"
        else {
            throw BearerError.invalidResponse(
                "The token exchange's answer has no token_type of Bearer, DPoP or N_A (RFC 8693 §2.2.1); "
                    + "nothing was kept.")
        }
        var rejected: [String: BearerError] = [:]
        refreshToken = TokenResponse.refreshToken(json, rejecting: &rejected)
        expiresIn = TokenResponse.lifetime(json, "expires_in", rejecting: &rejected)
        if let failure = rejected.values.first { throw failure }
        scopes = json["scope"]?.stringValue.map(Scopes.parse)
        issuedToken = SecurityToken(token)
        issuedTokenType = TokenTypeIdentifier(rawValue: issuedType)
        self.tokenType = tokenType
        self.json = json
    }

    /// Whether the issued token is not an access token (`token_type` `N_A`).
    var isNotAccessToken: Bool { tokenType.lowercased() == "n_a" }
}

extension TokenExchangeResponse: CustomStringConvertible {
    /// The issued token's type, lifetime and scopes; never a token.
    public var description: String {
        let lifetime = expiresIn.map { "\(Int($0)) s" } ?? "unknown"
        return "TokenExchangeResponse(issued: \(issuedTokenType), token type: \(tokenType), expiresIn: \(lifetime), "
            + "scopes: \(scopes?.joined(separator: " ") ?? "as requested"), "
            + "refreshToken: \(refreshToken == nil ? "none" : "<redacted>"))"
    }
}
