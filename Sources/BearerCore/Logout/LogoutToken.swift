#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A logout token that passed every check of OpenID Connect Back-Channel Logout 1.0 §2.6: the
/// provider's word that the user signed out there, naming their provider session (`sid`), the
/// user (`sub`), or both.
///
/// ``BackChannelLogout`` makes one from the token a provider posts, and a
/// ``BackChannelLogoutStore`` ends the sessions it names (see ``ends(_:)``).
public struct LogoutToken: Sendable, Hashable {
    /// The member of `events` that makes a JWT a logout token.
    public static let eventURI = "http://schemas.openid.net/event/backchannel-logout"
    /// The longest after `iat` a logout token is accepted, whatever its `exp` says, and its
    /// lifetime when it has no `exp`: two minutes, as the specification recommends (§4). A `jti` is
    /// remembered for that long, plus the clock skew the receiver allows (``rememberedUntil``).
    public static let maximumLifetime: TimeInterval = 120

    /// `iss`: the provider.
    public let issuer: String
    /// The app's clients it is meant for: those of its `aud` that are among the receiver's
    /// ``BackChannelLogout/clientIDs``. Only their sessions end.
    public let audience: [String]
    /// `sub`: the user, when it names one.
    public let subject: String?
    /// `sid`: the provider's session, when it names one (compared with
    /// ``AuthState/providerSessionID``).
    public let sessionID: String?
    /// `jti`: the token's identifier, never accepted twice.
    public let tokenID: String
    /// `iat`: when it was issued.
    public let issuedAt: Date
    /// When it stops being accepted: its `exp`, or ``maximumLifetime`` after `iat` when that is
    /// sooner or it has no `exp`.
    public let expiresAt: Date
    /// Until when a store must remember its `jti`: no check accepts the token after this,
    /// ``expiresAt`` plus the clock skew the receiver allows.
    public let rememberedUntil: Date
    /// When it was checked, by the receiver's clock.
    let checkedAt: Date

    /// Reads and checks the claims of a token whose signature was verified.
    ///
    /// - Parameters:
    ///   - claims: The payload.
    ///   - type: The header's `typ`, if any.
    ///   - issuers: The issuer identifiers accepted, exactly.
    ///   - clientIDs: The clients of this app; `aud` must name one of them.
    ///   - clock: The time, and the skew allowed for `iat` and `exp`.
    /// - Throws: ``BearerError/Kind/invalidLogoutToken`` naming the failed check.
    init(claims: [String: JSONValue], type: String?, issuers: [String], clientIDs: Set<String>, clock: WallClock)
        throws
    {
        // Explicitly typed (§2.4), or untyped or typed as a plain JWT, as providers that predate the
        // recommendation send it (glewlwyd 2.7: "JWT"; idpyoidc 5.0: none); the events claim and the
        // absence of nonce still tell it from an ID token. Any other type is another kind of token.
        if let type, !["logout+jwt", "application/logout+jwt", "jwt"].contains(type.lowercased()) {
            throw BearerError.invalidLogoutToken(
                "The logout token's typ is \"\(String(type.printable.prefix(40)))\", not logout+jwt (§2.4); another "
                    + "kind of token cannot end sessions.")
        }
        func text(_ name: String) -> String? {
            guard let value = claims[name]?.stringValue, !value.isEmpty else { return nil }
            return value
        }
        func time(_ name: String) throws -> Date {
            guard case .number(let seconds)? = claims[name], seconds.isFinite, abs(seconds) < 1e11 else {
                throw BearerError.invalidLogoutToken("The logout token's \"\(name)\" is not a time in seconds.")
            }
            return Date(timeIntervalSince1970: seconds)
        }
        guard let issuer = text("iss"), issuers.contains(issuer) else {
            let named = text("iss").map { "\"\(String($0.printable.prefix(80)))\"" } ?? "no issuer"
            throw BearerError.invalidLogoutToken(
                "The logout token names \(named), not \(issuers.joined(separator: " or ")); it was refused.")
        }
        let audience: [String]
        switch claims["aud"] {
        case .string(let single)?: audience = [single]
        case .array(let values)?: audience = values.compactMap(\.stringValue)
        default: audience = []
        }
        guard audience.contains(where: clientIDs.contains) else {
            throw BearerError.invalidLogoutToken(
                "The logout token is not meant for this app's client (aud); it was refused.")
        }
        guard claims["nonce"] == nil else {
            throw BearerError.invalidLogoutToken(
                "The logout token carries a nonce, which a logout token never does (§2.4): it may be an ID token "
                    + "passed off as one. It was refused.")
        }
        guard case .object(let events)? = claims["events"], case .object? = events[Self.eventURI] else {
            throw BearerError.invalidLogoutToken(
                "The logout token's events claim has no \(Self.eventURI) member holding a JSON object (§2.4).")
        }
        let issuedAt = try time("iat")
        // exp became required after the 2022 text (glewlwyd 2.7 sends none); however long it is
        // (idpyoidc 5.0: a day), a token is accepted for at most maximumLifetime after iat.
        let latest = issuedAt.addingTimeInterval(Self.maximumLifetime)
        let expiresAt = claims["exp"] == nil ? latest : min(try time("exp"), latest)
        let now = clock.now()
        guard issuedAt <= now.addingTimeInterval(clock.allowedSkew) else {
            throw BearerError.invalidLogoutToken(
                "The logout token was issued in the future (\(issuedAt)); check the server's clock.")
        }
        guard now < expiresAt.addingTimeInterval(clock.allowedSkew) else {
            throw BearerError.invalidLogoutToken(
                "The logout token expired at \(expiresAt) (its exp, or \(Int(Self.maximumLifetime)) s after it was "
                    + "issued); it was refused.")
        }
        guard let tokenID = text("jti") else {
            throw BearerError.invalidLogoutToken(
                "The logout token has no jti, without which a replay cannot be told from it (§2.4).")
        }
        for name in ["sub", "sid"] where claims[name] != nil && text(name) == nil {
            // Read as absent, a malformed sid would widen the token to every session of its sub.
            throw BearerError.invalidLogoutToken("The logout token's \"\(name)\" is not a non-empty string (§2.4).")
        }
        let subject = text("sub")
        let sessionID = text("sid")
        guard subject != nil || sessionID != nil else {
            throw BearerError.invalidLogoutToken(
                "The logout token names neither a session (sid) nor a user (sub) (§2.4); it ends nothing.")
        }
        self.init(
            issuer: issuer, audience: audience.filter(clientIDs.contains), subject: subject, sessionID: sessionID,
            tokenID: tokenID, issuedAt: issuedAt, expiresAt: expiresAt, checkedAt: now, allowedSkew: clock.allowedSkew)
    }

    /// A token with these claims, as if it had passed its checks at `issuedAt`: for conformance
    /// checks of stores (BearerTesting's `BackChannelLogoutConformance`), never for a token that
    /// came from a provider.
    ///
    /// - Parameters:
    ///   - issuer: `iss`.
    ///   - audience: The clients it is meant for.
    ///   - subject: `sub`.
    ///   - sessionID: `sid`.
    ///   - tokenID: `jti`.
    ///   - issuedAt: `iat`, and when it was checked.
    @_spi(Testing) public init(
        issuer: String, audience: [String], subject: String?, sessionID: String?, tokenID: String, issuedAt: Date
    ) {
        self.init(
            issuer: issuer, audience: audience, subject: subject, sessionID: sessionID, tokenID: tokenID,
            issuedAt: issuedAt, expiresAt: issuedAt.addingTimeInterval(Self.maximumLifetime), checkedAt: issuedAt,
            allowedSkew: WallClock.defaultAllowedSkew)
    }

    private init(
        issuer: String, audience: [String], subject: String?, sessionID: String?, tokenID: String, issuedAt: Date,
        expiresAt: Date, checkedAt: Date, allowedSkew: TimeInterval
    ) {
        self.issuer = issuer
        self.audience = audience
        self.subject = subject
        self.sessionID = sessionID
        self.tokenID = tokenID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.rememberedUntil = expiresAt.addingTimeInterval(allowedSkew)
        self.checkedAt = checkedAt
    }

    /// Whether `state` is a session this token ends (§2.7): one of its audience's clients, signed in
    /// at its issuer, in the provider session it names (and as the user, when it names one too), or
    /// any session of the user it names when it names no session.
    ///
    /// - Parameter state: A stored session.
    /// - Returns: `true` when the session is to end.
    public func ends(_ state: AuthState) -> Bool {
        guard state.server.idTokenIssuers.contains(issuer), audience.contains(state.client.id) else { return false }
        if let subject, state.user?.subject != subject { return false }
        if let sessionID { return state.providerSessionID == sessionID }
        return true
    }
}
