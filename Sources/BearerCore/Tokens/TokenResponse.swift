#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A successful token-endpoint response (RFC 6749 §5.1).
///
/// Read grant first: the tokens are taken before any other field is judged, so a field that fails
/// a check never costs a token the server has issued (a rotated refresh token above all).
///
/// - The access token must be a non-empty RFC 6750 `b64token` with `token_type` `Bearer`, or
///   `DPoP` when the request carried a proof (RFC 9449 §5), compared case-insensitively; the refresh token, when sent, a non-empty `b64token`. A token that fails
///   is dropped and its failure kept in ``rejectedFields``; the answer is refused only when it
///   leaves no token at all.
/// - `expires_in` (a number or a string holding one), `refresh_token_expires_in`, `scope` and
///   `id_token` are tolerant: one that cannot be read is dropped and recorded in
///   ``rejectedFields``, and the rest of the answer is used.
///
/// Unknown fields are kept within limits, so a hostile or broken server cannot make a session too
/// large or too deep to save: a field nested more than ``maximumKeptDepth`` levels deep is dropped,
/// and fields are kept in name order until their JSON reaches ``maximumKeptBytes``. The tokens are
/// always kept.
struct TokenResponse: Sendable, Hashable {
    /// The access token; `nil` when the one sent failed a check (see ``rejectedFields``), in
    /// which case the answer carries a refresh token.
    var accessToken: AccessToken?
    /// The token type as sent (`Bearer` or `DPoP`, in any case).
    var tokenType: String

    /// How the access token is presented: DPoP when the server said so, Bearer otherwise.
    var accessTokenType: AccessTokenType { AccessTokenType(answered: tokenType) ?? .bearer }
    /// The lifetime in seconds from receipt, when the server said.
    var expiresIn: TimeInterval?
    /// The refresh token, when the server issued one (or rotated it).
    var refreshToken: RefreshToken?
    /// How long the refresh token works, in seconds from receipt, when the server said
    /// (`refresh_token_expires_in`, sent by Google for time-limited grants).
    var refreshTokenExpiresIn: TimeInterval?
    /// The granted scopes, when the server listed them; `nil` means "as requested" (RFC 6749 §5.1).
    var scopes: [String]?
    /// The OpenID Connect ID token, when the server issued one that could be read.
    var idToken: IDToken?
    /// The fields that were sent but failed a check and were dropped, by field name, with why.
    var rejectedFields: [String: BearerError]
    /// Fields Bearer does not interpret, kept as they came.
    var additionalParameters: [String: JSONValue]

    /// The longest lifetime believed (ten years); a larger `expires_in` is read as this.
    static let maximumLifetime: TimeInterval = 315_360_000

    /// The deepest nesting of an unknown field that is kept: a field nested deeper is dropped.
    static let maximumKeptDepth = 16

    /// How many bytes of JSON the unknown fields kept may take in all; fields past it are dropped.
    static let maximumKeptBytes = 16_384

    private static let knownFields: Set<String> = [
        "access_token", "token_type", "expires_in", "refresh_token", "scope", "id_token", "refresh_token_expires_in",
    ]

    /// Creates a response from its parts.
    ///
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - tokenType: The token type.
    ///   - expiresIn: The lifetime in seconds.
    ///   - refreshToken: The refresh token.
    ///   - refreshTokenExpiresIn: The refresh token's lifetime in seconds.
    ///   - scopes: The granted scopes.
    ///   - idToken: The ID token.
    ///   - rejectedFields: Fields dropped because they failed a check.
    ///   - additionalParameters: Other fields.
    init(
        accessToken: AccessToken?,
        tokenType: String = "Bearer",
        expiresIn: TimeInterval? = nil,
        refreshToken: RefreshToken? = nil,
        refreshTokenExpiresIn: TimeInterval? = nil,
        scopes: [String]? = nil,
        idToken: IDToken? = nil,
        rejectedFields: [String: BearerError] = [:],
        additionalParameters: [String: JSONValue] = [:]
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.refreshTokenExpiresIn = refreshTokenExpiresIn
        self.scopes = scopes
        self.idToken = idToken
        self.rejectedFields = rejectedFields
        self.additionalParameters = additionalParameters
    }

    /// Reads a token-endpoint answer, checking the HTTP status before decoding.
    ///
    /// - Parameters:
    ///   - data: The body.
    ///   - response: The HTTP response.
    ///   - receivedAt: When it arrived, against which a `Retry-After` date is read.
    /// - Throws: ``OAuthError`` when the server reports an error; ``BearerError`` with kind
    ///   ``BearerError/Kind/invalidResponse``, ``BearerError/Kind/serverUnavailable``,
    ///   ``BearerError/Kind/invalidResponse``, ``BearerError/Kind/invalidResponse`` or
    ///   ``BearerError/Kind/invalidIDToken`` otherwise.
    init(response: TransportResponse, receivedAt: Date) throws {
        let object = try AuthorizationServerClient.jsonObject(
            from: response,
            endpointName: "token endpoint",
            now: receivedAt
        )
        try self.init(json: object)
    }

    /// Reads the fields of a decoded token-endpoint answer, grant first (see ``TokenResponse``).
    ///
    /// - Parameters:
    ///   - json: The JSON object.
    ///   - proofSent: Whether the request carried a DPoP proof, without which a `DPoP` token is refused.
    /// - Throws: ``BearerError`` with kind ``BearerError/Kind/invalidResponse`` or
    ///   ``BearerError/Kind/invalidResponse`` when the answer holds no usable token at all.
    init(json: [String: JSONValue], proofSent: Bool = false) throws {
        var rejected: [String: BearerError] = [:]
        let refreshToken = Self.refreshToken(json, rejecting: &rejected)
        let accessToken = Self.accessToken(json, proofSent: proofSent, rejecting: &rejected)
        if accessToken == nil && refreshToken == nil {
            throw rejected["token_type"] ?? rejected["access_token"]
                ?? BearerError.invalidResponse("The token response holds no token (RFC 6749 §5.1).")
        }
        let expiresIn = Self.lifetime(json, "expires_in", rejecting: &rejected)
        let refreshTokenExpiresIn = Self.lifetime(json, "refresh_token_expires_in", rejecting: &rejected)
        var scopes: [String]?
        if let value = json["scope"], value != .null {
            if let text = value.stringValue {
                scopes = Scopes.parse(text)
            } else {
                rejected["scope"] = BearerError.invalidResponse("The token response's scope is not a string.")
            }
        }
        var idToken: IDToken?
        if let value = json["id_token"], value != .null {
            do {
                guard let token = value.stringValue else {
                    throw BearerError.invalidIDToken("The token response's id_token is not a string.")
                }
                idToken = try IDToken(token)
            } catch {
                rejected["id_token"] =
                    error as? BearerError
                    ?? BearerError.invalidIDToken("The token response's id_token is unreadable.")
            }
        }
        self.init(
            accessToken: accessToken,
            tokenType: json["token_type"]?.stringValue ?? "Bearer",
            expiresIn: expiresIn,
            refreshToken: refreshToken,
            refreshTokenExpiresIn: refreshTokenExpiresIn,
            scopes: scopes,
            idToken: idToken,
            rejectedFields: rejected,
            additionalParameters: JSONValue.keeping(
                json.filter { !Self.knownFields.contains($0.key) },
                maximumDepth: Self.maximumKeptDepth,
                maximumBytes: Self.maximumKeptBytes
            )
        )
    }

    /// The access token, when it is a `b64token` of type Bearer, or DPoP after a proof; else `nil`,
    /// with why in `rejected`.
    private static func accessToken(
        _ json: [String: JSONValue],
        proofSent: Bool,
        rejecting rejected: inout [String: BearerError]
    ) -> AccessToken? {
        guard let value = json["access_token"]?.stringValue, !value.isEmpty else {
            rejected["access_token"] = BearerError.invalidResponse(
                "The token response has no access_token (RFC 6749 §5.1); the server is misconfigured."
            )
            return nil
        }
        guard B64Token.isValid(value) else {
            rejected["access_token"] = BearerError.invalidResponse(
                "The token response's access_token holds characters a bearer token may not (RFC 6750 §2.1); "
                    + "it was refused and is never printed or sent."
            )
            return nil
        }
        guard let tokenType = json["token_type"]?.stringValue else {
            rejected["token_type"] = BearerError.invalidResponse(
                "The token response has no token_type (RFC 6749 §5.1).")
            return nil
        }
        switch AccessTokenType(answered: tokenType) {
        case .bearer?:
            break
        case .dpop? where proofSent:
            break
        case .dpop?:
            rejected["token_type"] = BearerError.invalidResponse(
                "The server issued a DPoP token to a request that carried no DPoP proof (RFC 9449 §5); it was "
                    + "refused and is never sent."
            )
            return nil
        case nil:
            rejected["token_type"] = BearerError.invalidResponse(
                "The server issued a \"\(tokenType.printable)\" token; Bearer supports only "
                    + "Bearer (RFC 6750) and DPoP (RFC 9449) tokens."
            )
            return nil
        }
        return AccessToken(value)
    }

    /// The refresh token, when one was sent and is a `b64token`; else `nil`, with why in `rejected`.
    static func refreshToken(
        _ json: [String: JSONValue],
        rejecting rejected: inout [String: BearerError]
    ) -> RefreshToken? {
        guard let value = json["refresh_token"], value != .null else { return nil }
        guard let token = value.stringValue, B64Token.isValid(token) else {
            rejected["refresh_token"] = BearerError.invalidResponse(
                "The token response's refresh_token is not a string of bearer-token characters (RFC 6750 §2.1)."
            )
            return nil
        }
        return RefreshToken(token)
    }

    /// A lifetime in seconds (a number, or a string holding one), capped at ``maximumLifetime``;
    /// `nil`, with why in `rejected`, when it is not a number of seconds.
    static func lifetime(
        _ json: [String: JSONValue],
        _ name: String,
        rejecting rejected: inout [String: BearerError]
    ) -> TimeInterval? {
        guard let value = json[name], value != .null else { return nil }
        guard let seconds = value.numberValue, seconds.isFinite, seconds >= 0 else {
            rejected[name] = BearerError.invalidResponse("The token response's \(name) is not a number of seconds.")
            return nil
        }
        return min(seconds, maximumLifetime)
    }
}

extension TokenResponse: RedactedDescription {
    /// The token type, lifetime, scopes and extra field names; never a token.
    var description: String {
        let lifetime = expiresIn.map { "\(Int($0)) s" } ?? "unknown"
        return
            "TokenResponse(accessToken: \(accessToken == nil ? "none" : "<redacted>"), type: \(tokenType), expiresIn: \(lifetime), "
            + "refreshToken: \(refreshToken == nil ? "none" : "<redacted>"), "
            + "idToken: \(idToken == nil ? "none" : "<redacted>"), scopes: \(scopes?.joined(separator: " ") ?? "as requested"), "
            + "other fields: \(additionalParameters.keys.sorted().joined(separator: ", ")), "
            + "rejected: \(rejectedFields.keys.sorted().joined(separator: ", ")))"
    }
}
