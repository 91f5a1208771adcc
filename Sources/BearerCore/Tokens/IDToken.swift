#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An OpenID Connect ID token (OpenID Connect Core §2): the raw JWT and its decoded claims.
///
/// The signature is not verified: the token came straight from the token endpoint over TLS, which
/// OpenID Connect Core §3.1.3.7 accepts in place of a signature check. Use
/// ``validate(issuer:clientID:nonce:clock:)`` to check the claims. The raw token is a
/// credential (backends accept it as proof of sign-in), so descriptions redact it.
public struct IDToken: Sendable, Hashable {
    /// The compact JWT as received.
    public let value: String
    /// The decoded claims.
    public let claims: IDTokenClaims

    /// Decodes a compact JWS (`header.payload.signature`), tolerating padded or standard base64 segments.
    ///
    /// - Parameter value: The JWT.
    /// - Throws: ``BearerError/Kind/invalidIDToken`` when it is not a JWT with valid claims.
    public init(_ value: String) throws {
        let segments = value.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else {
            throw BearerError.invalidIDToken(
                "The ID token has \(segments.count) segments; a signed JWT has 3 (RFC 7515 §7.1)."
            )
        }
        guard let header = Base64URL.decode(segments[0]), case .object? = try? JSONParser.parse(header) else {
            throw BearerError.invalidIDToken("The ID token's header is not base64url-encoded JSON.")
        }
        guard let payload = Base64URL.decode(segments[1]), case .object(let claims)? = try? JSONParser.parse(payload)
        else {
            throw BearerError.invalidIDToken("The ID token's payload is not base64url-encoded JSON.")
        }
        self.value = value
        self.claims = try IDTokenClaims(json: claims)
    }

    /// Checks the claims as OpenID Connect Core §3.1.3.7 requires.
    ///
    /// - Parameters:
    ///   - issuer: The expected `iss`, exactly.
    ///   - clientID: This client's ID, which `aud` must contain; `azp`, when present or when there
    ///     are several audiences, must equal it.
    ///   - nonce: The request's nonce; when given, the `nonce` claim must equal it.
    ///   - clock: The current time and the skew allowed for `iat` and `exp`.
    /// - Throws: ``BearerError/Kind/invalidIDToken`` naming the failed check.
    public func validate(
        issuer: String,
        clientID: String,
        nonce: String?,
        clock: WallClock = .system
    ) throws {
        try validate(issuers: [issuer], clientID: clientID, nonce: nonce, clock: clock)
    }

    /// Checks the claims as ``validate(issuer:clientID:nonce:clock:)`` does, for ID tokens of
    /// `server`: its issuer exactly, and for Google also `accounts.google.com`, the spelling
    /// without a scheme that Google's OpenID Connect guide says to accept too.
    ///
    /// - Parameters:
    ///   - server: The server that issued the token.
    ///   - clientID: This client's ID.
    ///   - nonce: The request's nonce, if one was sent.
    ///   - clock: The current time and the skew allowed for `iat` and `exp`.
    /// - Throws: ``BearerError/Kind/invalidIDToken`` naming the failed check.
    public func validate(
        for server: AuthorizationServer,
        clientID: String,
        nonce: String?,
        clock: WallClock = .system
    ) throws {
        try validate(issuers: server.idTokenIssuers, clientID: clientID, nonce: nonce, clock: clock)
    }

    private func validate(issuers: [String], clientID: String, nonce: String?, clock: WallClock) throws {
        let now = clock.now()
        let allowedClockSkew = clock.allowedSkew
        guard issuers.contains(claims.issuer) else {
            throw BearerError.invalidIDToken(
                "The ID token was issued by \(claims.issuer), not \(issuers.joined(separator: " or ")). Check the server configuration."
            )
        }
        guard claims.audience.contains(clientID) else {
            throw BearerError.invalidIDToken("The ID token is not meant for client \(clientID) (aud).")
        }
        if claims.audience.count > 1 || claims.authorizedParty != nil {
            guard claims.authorizedParty == clientID else {
                throw BearerError.invalidIDToken("The ID token's authorized party (azp) is not client \(clientID).")
            }
        }
        guard now < claims.expiresAt.addingTimeInterval(allowedClockSkew) else {
            throw BearerError.invalidIDToken(
                "The ID token expired at \(claims.expiresAt); check the device clock, then sign in again."
            )
        }
        guard claims.issuedAt <= now.addingTimeInterval(allowedClockSkew) else {
            throw BearerError.invalidIDToken(
                "The ID token was issued in the future (\(claims.issuedAt)); check the device clock."
            )
        }
        if let nonce {
            guard let claimed = claims.nonce, ConstantTime.equals(claimed, nonce) else {
                throw BearerError.invalidIDToken(
                    "The ID token's nonce does not match the request's; it may be replayed. Sign in again."
                )
            }
        }
    }
}

extension IDToken: Codable {
    /// Decodes a saved token from its compact form.
    public init(from decoder: any Decoder) throws {
        try self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the compact form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

extension IDToken: RedactedDescription {
    /// The issuer and subject; never the token.
    public var description: String {
        "IDToken(<redacted>, iss: \(claims.issuer), sub: \(claims.subject))"
    }
}
