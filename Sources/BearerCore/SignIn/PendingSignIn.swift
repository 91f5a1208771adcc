#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A web sign-in begun on one instance of a server fleet and finished on whichever instance the
/// browser's callback reaches: a value to store between the two (see ``PendingSignInStore``).
///
/// ```swift
/// // Instance A, on "connect your account":
/// let pending = try AuthSession.beginSignIn(to: server, as: client, scopes: ["openid", "email"], key: userID)
/// try await store.savePendingSignIn(pending)
/// redirectBrowser(to: pending.authorizationURL)
///
/// // Instance B, on the callback:
/// let session = try await AuthSession.finishSignIn(
///     redirect: callbackURL, pendingSignIns: store, store: store, key: userID)
/// ```
///
/// It holds the authorization request (the issuer, the client, the redirect URI, the requested
/// scopes, `state`, the OpenID Connect `nonce` and the PKCE verifier), the key the session will be
/// saved under, and when it was created.
/// The verifier is a secret until the code is exchanged: store pending sign-ins as you store
/// sessions. Decoding checks the same rules as creating one, so a tampered record is refused.
public struct PendingSignIn: Sendable, Hashable, Codable {
    /// How long a pending sign-in can be finished when the call does not say: 10 minutes, the
    /// longest an authorization code should live (RFC 6749 §4.1.2).
    public static let defaultLifetime: Duration = .seconds(600)

    /// The authorization request the browser is sent to.
    public let request: AuthorizationRequest
    /// When the sign-in began, by the clock of the instance that began it.
    public let createdAt: Date
    /// The key the session will be saved under: the app's user (or browser session) that began
    /// the sign-in. Finishing it for another key is refused, so a callback an attacker began and
    /// sent to a victim cannot put the attacker's account into the victim's session (RFC 6749 §10.12).
    public let key: String
    /// Extra parameters of the code exchange (RFC 8707 `resource`, an `audience`).
    public let tokenParameters: [String: String]

    /// The URL to send the browser to.
    public var authorizationURL: URL { request.url }
    /// The `state` the callback must carry: the key a ``PendingSignInStore`` files it under.
    public var state: String { request.state }
    /// When the server's reference to a pushed request (RFC 9126) expires, after which
    /// ``authorizationURL`` no longer starts a sign-in and it must begin again; `nil` when the
    /// request was not pushed.
    public var pushedRequestExpiresAt: Date? { request.pushed?.expiresAt }

    init(request: AuthorizationRequest, key: String, createdAt: Date, tokenParameters: [String: String]) {
        self.request = request
        self.key = key
        self.createdAt = createdAt
        self.tokenParameters = tokenParameters
    }

    private enum CodingKeys: String, CodingKey {
        case request
        case key
        case createdAt = "created_at"
        case tokenParameters = "token_parameters"
    }

    /// Decodes a stored pending sign-in; its request is checked as a new one is (see
    /// ``AuthorizationRequest/init(from:)``): an https authorization endpoint (or loopback http
    /// where the server allows it), scopes of RFC 6749 §3.3, and `state`, nonce and PKCE values of
    /// the kind Bearer makes.
    ///
    /// - Throws: `DecodingError` for a malformed record; ``BearerError`` when a check fails.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let request = try container.decode(AuthorizationRequest.self, forKey: .request)
        self.init(
            request: request,
            key: try container.decode(String.self, forKey: .key),
            createdAt: try container.decode(Date.self, forKey: .createdAt),
            tokenParameters: try container.decodeIfPresent([String: String].self, forKey: .tokenParameters) ?? [:])
    }

    /// Encodes the pending sign-in, PKCE verifier included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(request, forKey: .request)
        try container.encode(key, forKey: .key)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(tokenParameters, forKey: .tokenParameters)
    }

    /// Serializes the pending sign-in as JSON (sorted keys, dates as seconds since 1970), PKCE
    /// verifier included, for a ``PendingSignInStore``.
    ///
    /// - Returns: The JSON.
    /// - Throws: ``BearerError/Kind/storageFailure`` when it cannot be encoded.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        do {
            return try encoder.encode(self)
        } catch {
            throw BearerError.storageFailure("The pending sign-in cannot be encoded; start it again.")
        }
    }

    /// Reads a pending sign-in serialized by ``encoded()``, with the checks of ``init(from:)``.
    ///
    /// - Parameter data: The JSON.
    /// - Throws: ``BearerError/Kind/invalidRedirect`` when it is not a pending sign-in this
    ///   release reads, or a check fails.
    public init(encoded data: Data) throws {
        do {
            self = try JSONValueDecoder.decode(PendingSignIn.self, from: data)
        } catch let error as BearerError {
            throw error
        } catch {
            throw BearerError.invalidRedirect(
                "The stored pending sign-in is not one this release reads; start the sign-in again.")
        }
    }

    /// Whether the sign-in can still be finished at `now`.
    func isLive(at now: Date, lifetime: Duration) -> Bool {
        let age = now.timeIntervalSince(createdAt)
        let (seconds, attoseconds) = lifetime.components
        return age >= -WallClock.defaultAllowedSkew && age <= Double(seconds) + Double(attoseconds) * 1e-18
    }
}

extension PendingSignIn: RedactedDescription {
    /// The request (never the verifier) and the creation time.
    public var description: String {
        "PendingSignIn(\(request), createdAt: \(createdAt))"
    }
}
