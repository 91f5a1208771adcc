#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension AuthState {
    /// The leeway actually used for the current token: the smaller of `leeway` and half the token's
    /// lifetime as received, so a token living 60 s or less is not stale on arrival. It is never
    /// negative, whatever a file holds: a negative or non-finite leeway or lifetime counts as 0,
    /// so an expired token is never fresh.
    ///
    /// - Parameter leeway: The configured leeway.
    /// - Returns: The effective leeway.
    public func effectiveLeeway(_ leeway: TimeInterval = defaultRefreshLeeway) -> TimeInterval {
        let leeway = leeway.isFinite ? max(leeway, 0) : 0
        guard let lifetime = accessTokenLifetime else { return leeway }
        return lifetime.isFinite ? min(leeway, max(lifetime, 0) / 2) : 0
    }

    /// Whether the access token must be refreshed before use at `now`.
    ///
    /// With expiry T and effective leeway L, a token is fresh strictly before T − L and needs a
    /// refresh from T − L on. A token without an expiry is fresh while it exists.
    ///
    /// - Parameters:
    ///   - now: The current time.
    ///   - leeway: The configured leeway (60 s by default); see ``effectiveLeeway(_:)``.
    /// - Returns: `true` when there is no access token or it is within the leeway of expiry.
    public func needsRefresh(at now: Date, leeway: TimeInterval = defaultRefreshLeeway) -> Bool {
        guard accessToken != nil else { return true }
        guard let expiresAt = accessTokenExpiresAt else { return false }
        return now >= expiresAt.addingTimeInterval(-effectiveLeeway(leeway))
    }

    /// Whether the ID token is missing or must be renewed at `now`: it expires within `leeway`.
    ///
    /// - Parameters:
    ///   - now: The current time.
    ///   - leeway: How long before its expiry an ID token counts as expired.
    /// - Returns: `true` when there is no ID token or it expires within `leeway`.
    public func idTokenNeedsRefresh(at now: Date, leeway: TimeInterval = defaultRefreshLeeway) -> Bool {
        guard let idToken else { return true }
        return now >= idToken.claims.expiresAt.addingTimeInterval(-leeway)
    }

    /// Returns this session marked as needing a new sign-in, keeping everything else.
    ///
    /// - Parameter error: The server's error, usually `invalid_grant`.
    /// - Returns: The marked session.
    func markingSignInRequired(_ error: OAuthError) -> AuthState {
        var next = self
        next.signInRequiredError = error
        return next
    }
}

extension AuthState {
    /// Whether a server said the user must sign in again (``signInRequiredError``, usually
    /// `invalid_grant`). A session that holds no token cannot be used either: the package's one
    /// rule for both is what ``SavedAccount/signInRequired`` and `bearer status` show.
    public var signInRequired: Bool { signInRequiredError != nil }

    /// Whether this session can authorize requests: it needs no new sign-in and holds an access
    /// token or a refresh token. The one rule for "is this session usable", read by the session,
    /// the account list and the tool.
    @_spi(CommandLine) public var canAuthorize: Bool {
        !signInRequired && (accessToken != nil || refreshToken != nil)
    }
}
