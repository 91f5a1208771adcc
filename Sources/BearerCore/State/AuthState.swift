#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A signed-in session: the server and client, the tokens, their expiry, the granted scopes and the
/// user, as one serializable value.
///
/// An app reads it from its ``AuthSession`` (``AuthSession/state``), which creates it at sign-in
/// and replaces it on each refresh, saved before use; `AuthState` is a value, so a copy never
/// changes. Its descriptions never show a token.
public struct AuthState: Sendable, Hashable {
    /// The leeway used when none is given: refresh from 60 s before expiry.
    public static let defaultRefreshLeeway: TimeInterval = 60

    /// The authorization server.
    public var server: AuthorizationServer {
        get { storage.fields.server }
        set { fields.server = newValue }
    }
    /// The client.
    public var client: Client {
        get { storage.fields.client }
        set { fields.client = newValue }
    }
    /// The current access token, if any. An empty token counts as none: it is never stamped on a
    /// request, and the session refreshes or asks for a new sign-in instead.
    public var accessToken: AccessToken? {
        get { storage.fields.accessToken }
        set { fields.accessToken = Self.usable(newValue) }
    }
    /// When the access token expires, computed at receipt; `nil` when the server did not say.
    /// Kept at a value that a saved session reads back exactly (see `AuthState.storable(_:)`).
    public var accessTokenExpiresAt: Date? {
        get { storage.fields.accessTokenExpiresAt }
        set { fields.accessTokenExpiresAt = newValue.map(Self.storable) }
    }
    /// The access token's lifetime as received (`expires_in`), used to shorten the leeway for
    /// short-lived tokens.
    public var accessTokenLifetime: TimeInterval? {
        get { storage.fields.accessTokenLifetime }
        set { fields.accessTokenLifetime = newValue }
    }
    /// How requests present ``accessToken``: ``AccessTokenType/bearer`` (RFC 6750), or
    /// ``AccessTokenType/dpop`` with a proof signed by ``dpopKey`` (RFC 9449), as the server said
    /// when it issued the token.
    public var accessTokenType: AccessTokenType {
        get { storage.fields.accessTokenType }
        set { fields.accessTokenType = newValue }
    }
    /// The DPoP key the grant is bound to, saved with the tokens in the same record; `nil` for a
    /// Bearer grant. It lives exactly as long as the grant: a refresh keeps it, a new sign-in
    /// replaces it.
    public var dpopKey: DPoPKeyRecord? {
        get { storage.fields.dpopKey }
        set { fields.dpopKey = newValue }
    }
    /// The protected resource the grant is for (RFC 8707), for a session signed in with
    /// ``AuthSession/signIn(toResource:as:using:store:scopes:challenge:allowingInsecureLoopback:transport:clock:configuration:)``:
    /// every refresh names it, and its tokens are sent to it alone. `nil` for a session whose
    /// tokens go wherever its configuration allows.
    public var resource: ProtectedResource? {
        get { storage.fields.resource }
        set { fields.resource = newValue }
    }
    /// The refresh token, if any.
    public var refreshToken: RefreshToken? {
        get { storage.fields.refreshToken }
        set { fields.refreshToken = newValue }
    }
    /// When the refresh token stops working, from the server's `refresh_token_expires_in` (Google's
    /// time-limited grants); `nil` when the server did not say. From then on the session needs a
    /// new sign-in and no refresh is sent. Kept at a value a saved session reads back exactly.
    public var refreshTokenExpiresAt: Date? {
        get { storage.fields.refreshTokenExpiresAt }
        set { fields.refreshTokenExpiresAt = newValue.map(Self.storable) }
    }
    /// The latest ID token that passed its checks, if any. A refresh whose answer has no ID token
    /// keeps this one only while it has not expired.
    public var idToken: IDToken? {
        get { storage.fields.idToken }
        set { fields.idToken = newValue }
    }
    /// Why the ID token of the last refresh was not kept, when it failed a check (a server clock
    /// off by more than the allowed skew, a wrong audience); `nil` when it passed or none came.
    /// The refreshed tokens were saved all the same.
    public var idTokenRejection: BearerError? {
        get { storage.fields.idTokenRejection }
        set { fields.idTokenRejection = newValue }
    }
    /// The scopes the server granted.
    public var grantedScopes: [String] {
        get { storage.fields.grantedScopes }
        set { fields.grantedScopes = newValue }
    }
    /// The scopes the app asked for.
    public var requestedScopes: [String] {
        get { storage.fields.requestedScopes }
        set { fields.requestedScopes = newValue }
    }
    /// Who signed in, from the ID token.
    public var user: User? {
        get { storage.fields.user }
        set { fields.user = newValue }
    }
    /// The provider's session the grant came from: the `sid` of the sign-in's ID token (OpenID
    /// Connect Back-Channel Logout 1.0 §2.1), kept across refreshes, so that a logout token naming
    /// it ends this session (see ``BackChannelLogout``); `nil` when the server sent none.
    public var providerSessionID: String? {
        get { storage.fields.providerSessionID }
        set { fields.providerSessionID = newValue }
    }
    /// Set when the grant is gone: the user must sign in again. Sticky: saved with the session and
    /// cleared only by a new sign-in. It is the server's `invalid_grant` (or another error that
    /// requires a sign-in), `invalid_grant` without an HTTP status when the refresh token's
    /// `refresh_token_expires_in` has passed, or `login_required` without an HTTP status when a
    /// refreshed ID token names another user (the new tokens are kept, so signing out revokes them).
    public var signInRequiredError: OAuthError? {
        get { storage.fields.signInRequiredError }
        set { fields.signInRequiredError = newValue }
    }
    /// The fields of the last token answer that Bearer does not interpret, as they came (AppAuth's
    /// `additionalParameters`), such as a server's `server_code`: `state.additionalParameters["server_code"]?.stringValue`.
    /// At most 16 KiB of JSON, no field nested more than 16 levels deep, are kept.
    public internal(set) var additionalParameters: [String: JSONValue] {
        get { storage.fields.additionalParameters }
        set { fields.additionalParameters = newValue }
    }
    /// The other parameters of the redirect that ended the sign-in (RFC 6749 §4.1.2), such as
    /// Google's `authuser`, `hd` and `prompt` or a server's `session_state`: everything but `code`,
    /// `state` and `iss`. Empty for a session that did not come from a browser sign-in.
    public var authorizationResponseParameters: [String: String] {
        get { storage.fields.authorizationResponseParameters }
        set { fields.authorizationResponseParameters = newValue }
    }
    /// How the session was derived from another one (a token exchange or an ID-JAG of its
    /// parent's token), so that it is made again from a fresh parent when it is stale; `nil` for a
    /// session signed in directly. See ``AuthSession/derive(_:at:as:resource:store:key:transport:clock:configuration:)``.
    public internal(set) var derivation: SessionDerivation? {
        get { storage.fields.derivation }
        set { fields.derivation = newValue }
    }
    /// Values that other formats carry and Bearer keeps so it can write them back (for example a
    /// migrated GTMOAuth2 session's `serviceProvider`). Never a credential.
    public var metadata: [String: String] {
        get { storage.fields.metadata }
        set { fields.metadata = newValue }
    }

    /// What a session holds, kept once behind a reference that is never changed: a copy of a
    /// session (and each session handed to a caller is one) costs one reference count, not one for
    /// every token, URL and string in it. A change makes a new storage.
    private struct Fields: Sendable, Hashable {
        var server: AuthorizationServer
        var client: Client
        var accessToken: AccessToken?
        var accessTokenExpiresAt: Date?
        var accessTokenLifetime: TimeInterval?
        var accessTokenType: AccessTokenType
        var dpopKey: DPoPKeyRecord?
        var resource: ProtectedResource?
        var refreshToken: RefreshToken?
        var refreshTokenExpiresAt: Date?
        var idToken: IDToken?
        var idTokenRejection: BearerError?
        var grantedScopes: [String]
        var requestedScopes: [String]
        var user: User?
        var providerSessionID: String?
        var signInRequiredError: OAuthError?
        var additionalParameters: [String: JSONValue]
        var metadata: [String: String]
        var authorizationResponseParameters: [String: String]
        var derivation: SessionDerivation?
    }

    private final class Storage: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    private var fields: Fields {
        get { storage.fields }
        set { storage = Storage(newValue) }
    }

    /// Creates a session from its parts (used when restoring or migrating sessions).
    ///
    /// - Parameters:
    ///   - server: The server.
    ///   - client: The client.
    ///   - accessToken: The access token.
    ///   - accessTokenExpiresAt: When it expires.
    ///   - accessTokenLifetime: Its lifetime as received.
    ///   - accessTokenType: How requests present it.
    ///   - dpopKey: The DPoP key the grant is bound to.
    ///   - resource: The protected resource the grant is for.
    ///   - refreshToken: The refresh token.
    ///   - refreshTokenExpiresAt: When the refresh token expires.
    ///   - idToken: The ID token.
    ///   - idTokenRejection: Why the last refreshed ID token was not kept.
    ///   - grantedScopes: The granted scopes.
    ///   - requestedScopes: The requested scopes.
    ///   - user: The user.
    ///   - providerSessionID: The provider's session the grant came from (`sid`).
    ///   - signInRequiredError: Set when the user must sign in again.
    ///   - additionalParameters: Other token-response fields.
    ///   - metadata: Values kept for other formats.
    ///   - authorizationResponseParameters: The sign-in redirect's other parameters.
    @_spi(Migration) @_spi(Benchmarks) public init(
        server: AuthorizationServer,
        client: Client,
        accessToken: AccessToken? = nil,
        accessTokenExpiresAt: Date? = nil,
        accessTokenLifetime: TimeInterval? = nil,
        accessTokenType: AccessTokenType = .bearer,
        dpopKey: DPoPKeyRecord? = nil,
        resource: ProtectedResource? = nil,
        refreshToken: RefreshToken? = nil,
        refreshTokenExpiresAt: Date? = nil,
        idToken: IDToken? = nil,
        idTokenRejection: BearerError? = nil,
        grantedScopes: [String] = [],
        requestedScopes: [String] = [],
        user: User? = nil,
        providerSessionID: String? = nil,
        signInRequiredError: OAuthError? = nil,
        additionalParameters: [String: JSONValue] = [:],
        metadata: [String: String] = [:],
        authorizationResponseParameters: [String: String] = [:]
    ) {
        storage = Storage(
            Fields(
                server: server,
                client: client,
                accessToken: Self.usable(accessToken),
                accessTokenExpiresAt: accessTokenExpiresAt.map(Self.storable),
                accessTokenLifetime: accessTokenLifetime,
                accessTokenType: accessTokenType,
                dpopKey: dpopKey,
                resource: resource,
                refreshToken: refreshToken,
                refreshTokenExpiresAt: refreshTokenExpiresAt.map(Self.storable),
                idToken: idToken,
                idTokenRejection: idTokenRejection,
                grantedScopes: grantedScopes,
                requestedScopes: requestedScopes,
                user: user,
                providerSessionID: providerSessionID,
                signInRequiredError: signInRequiredError,
                additionalParameters: additionalParameters,
                metadata: metadata,
                authorizationResponseParameters: authorizationResponseParameters,
                derivation: nil
            )
        )
    }

    /// `token`, or `nil` when it is empty or not an RFC 6750 `b64token` (see ``B64Token``): such a
    /// token never authorizes anything, is never stamped and never printed.
    private static func usable(_ token: AccessToken?) -> AccessToken? {
        guard let token, B64Token.isValid(token.value) else { return nil }
        return token
    }

    /// `date` as a saved session reads it back: sessions store dates as seconds since 1970, and
    /// the conversion from and to Foundation's reference date can lose the last bits, so a date is
    /// kept at the value the conversion leaves unchanged. That value is at most a few hundred
    /// nanoseconds from `date`.
    static func storable(_ date: Date) -> Date {
        var current = date
        for _ in 0..<4 {
            let next = Date(timeIntervalSince1970: current.timeIntervalSince1970)
            if next == current { break }
            current = next
        }
        return current
    }

    /// Whether two sessions hold the same values.
    public static func == (lhs: AuthState, rhs: AuthState) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    /// Hashes the session's values.
    public func hash(into hasher: inout Hasher) {
        storage.fields.hash(into: &hasher)
    }
}
