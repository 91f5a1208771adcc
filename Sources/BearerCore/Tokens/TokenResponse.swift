#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// A successful token-endpoint response (RFC 6749 §5.1).
///
/// Tolerant where servers differ (`expires_in` as a number or a string; `scope`, `refresh_token`
/// and `id_token` optional; unknown fields kept), strict where it matters (`access_token` required,
/// `token_type` must be `Bearer`, compared case-insensitively).
///
/// Unknown fields are kept within limits, so a hostile or broken server cannot make a session too
/// large or too deep to save: a field nested more than ``maximumKeptDepth`` levels deep is dropped,
/// and fields are kept in name order until their JSON reaches ``maximumKeptBytes``. The tokens are
/// always kept.
package struct TokenResponse: Sendable, Hashable {
    /// The access token.
    package var accessToken: AccessToken
    /// The token type as sent (`Bearer`, in any case).
    package var tokenType: String
    /// The lifetime in seconds from receipt, when the server said.
    package var expiresIn: TimeInterval?
    /// The refresh token, when the server issued one (or rotated it).
    package var refreshToken: RefreshToken?
    /// How long the refresh token works, in seconds from receipt, when the server said
    /// (`refresh_token_expires_in`, sent by Google for time-limited grants).
    package var refreshTokenExpiresIn: TimeInterval?
    /// The granted scopes, when the server listed them; `nil` means "as requested" (RFC 6749 §5.1).
    package var scopes: [String]?
    /// The OpenID Connect ID token, when the server issued one.
    package var idToken: IDToken?
    /// Fields Bearer does not interpret, kept as they came.
    package var additionalParameters: [String: JSONValue]

    /// The longest lifetime believed (ten years); a larger `expires_in` is read as this.
    package static let maximumLifetime: TimeInterval = 315_360_000

    /// The deepest nesting of an unknown field that is kept: a field nested deeper is dropped.
    package static let maximumKeptDepth = 16

    /// How many bytes of JSON the unknown fields kept may take in all; fields past it are dropped.
    package static let maximumKeptBytes = 16_384

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
    ///   - additionalParameters: Other fields.
    package init(
        accessToken: AccessToken,
        tokenType: String = "Bearer",
        expiresIn: TimeInterval? = nil,
        refreshToken: RefreshToken? = nil,
        refreshTokenExpiresIn: TimeInterval? = nil,
        scopes: [String]? = nil,
        idToken: IDToken? = nil,
        additionalParameters: [String: JSONValue] = [:]
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.refreshTokenExpiresIn = refreshTokenExpiresIn
        self.scopes = scopes
        self.idToken = idToken
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
    package init(response: TransportResponse, receivedAt: Date) throws {
        let object = try OAuthEndpoint.jsonObject(
            from: response,
            endpointName: "token endpoint",
            now: receivedAt
        )
        try self.init(json: object)
    }

    /// Reads the fields of a decoded token-endpoint answer.
    ///
    /// - Parameter json: The JSON object.
    /// - Throws: ``BearerError`` with kind ``BearerError/Kind/invalidResponse``,
    ///   ``BearerError/Kind/invalidResponse`` or ``BearerError/Kind/invalidIDToken``.
    package init(json: [String: JSONValue]) throws {
        guard let accessToken = json["access_token"]?.stringValue, !accessToken.isEmpty else {
            throw BearerError.invalidResponse(
                "The token response has no access_token (RFC 6749 §5.1); the server is misconfigured."
            )
        }
        guard let tokenType = json["token_type"]?.stringValue else {
            throw BearerError.invalidResponse("The token response has no token_type (RFC 6749 §5.1).")
        }
        guard tokenType.lowercased() == "bearer" else {
            throw BearerError.invalidResponse(
                "The server issued a \"\(tokenType)\" token; Bearer supports only Bearer tokens (RFC 6750)."
            )
        }
        let expiresIn = try Self.lifetime(json, "expires_in")
        let refreshTokenExpiresIn = try Self.lifetime(json, "refresh_token_expires_in")
        var refreshToken: RefreshToken?
        if let value = json["refresh_token"], value != .null {
            guard let token = value.stringValue, !token.isEmpty else {
                throw BearerError.invalidResponse("The token response's refresh_token is not a string.")
            }
            refreshToken = RefreshToken(token)
        }
        var idToken: IDToken?
        if let value = json["id_token"], value != .null {
            guard let token = value.stringValue else {
                throw BearerError.invalidIDToken("The token response's id_token is not a string.")
            }
            idToken = try IDToken(token)
        }
        self.init(
            accessToken: AccessToken(accessToken),
            tokenType: tokenType,
            expiresIn: expiresIn,
            refreshToken: refreshToken,
            refreshTokenExpiresIn: refreshTokenExpiresIn,
            scopes: json["scope"]?.stringValue.map(Scopes.parse),
            idToken: idToken,
            additionalParameters: JSONValue.keeping(
                json.filter { !Self.knownFields.contains($0.key) },
                maximumDepth: Self.maximumKeptDepth,
                maximumBytes: Self.maximumKeptBytes
            )
        )
    }

    /// A lifetime in seconds (a number, or a string holding one), capped at ``maximumLifetime``.
    private static func lifetime(_ json: [String: JSONValue], _ name: String) throws -> TimeInterval? {
        guard let value = json[name], value != .null else { return nil }
        guard let seconds = value.numberValue, seconds.isFinite, seconds >= 0 else {
            throw BearerError.invalidResponse("The token response's \(name) is not a number of seconds.")
        }
        return min(seconds, maximumLifetime)
    }
}

extension TokenResponse: RedactedDescription {
    /// The token type, lifetime, scopes and extra field names; never a token.
    package var description: String {
        let lifetime = expiresIn.map { "\(Int($0)) s" } ?? "unknown"
        return "TokenResponse(accessToken: <redacted>, type: \(tokenType), expiresIn: \(lifetime), "
            + "refreshToken: \(refreshToken == nil ? "none" : "<redacted>"), "
            + "idToken: \(idToken == nil ? "none" : "<redacted>"), scopes: \(scopes?.joined(separator: " ") ?? "as requested"), "
            + "other fields: \(additionalParameters.keys.sorted().joined(separator: ", ")))"
    }
}
