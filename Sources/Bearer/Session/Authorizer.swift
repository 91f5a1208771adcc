#if canImport(FoundationNetworking)
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// Adds `Authorization: Bearer …` to requests, refreshing the token first when needed.
///
/// ``AuthSession`` is the standard implementation. Code that only needs to authorize requests
/// can depend on this protocol and be tested with a fake.
public protocol Authorizer: Sendable {
    /// Returns `request` with an `Authorization: Bearer` header, refreshing the access token first
    /// when it is within the leeway of expiry.
    ///
    /// - Parameter request: The request to authorize.
    /// - Returns: The authorized request.
    /// - Throws: ``BearerError`` when the URL may not receive a token, when the user must sign in
    ///   again, or when a refresh fails; an ``OAuthError`` the server reported.
    func authorize(_ request: URLRequest) async throws -> URLRequest

    /// Whether this authorizer can authorize requests at all (it has a usable token or refresh
    /// token and does not need a new sign-in).
    var canAuthorize: Bool { get async }

    /// The signed-in user, when known.
    var user: AuthState.User? { get async }
}

extension URLRequest {
    /// Sets `Authorization: Bearer <token>` (RFC 6750 §2.1), replacing any previous value.
    ///
    /// - Parameter token: The access token.
    public mutating func setBearerToken(_ token: AccessToken) {
        setValue("Bearer " + token.value, forHTTPHeaderField: "Authorization")
    }
}
