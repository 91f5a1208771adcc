@_spi(Bridge) import BearerCore
public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
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

    /// Authorizes and sends `request`; on `401` with `WWW-Authenticate: Bearer error="invalid_token"`
    /// the request is authorized again and, when that gives another token, retried once. A `403`
    /// with `error="insufficient_scope"` becomes an ``OAuthError`` with code
    /// ``OAuthError/Code/insufficientScope`` naming the scopes the server asked for.
    ///
    /// The default implementation sends with a shared ``URLSessionTransport``; ``AuthSession``
    /// sends with its own transport and refreshes the rejected token before the retry.
    ///
    /// - Parameter request: The request.
    /// - Returns: The body and response of the last attempt.
    /// - Throws: As ``authorize(_:)``; ``BearerError/Kind/network`` when no response comes;
    ///   ``OAuthError`` for `insufficient_scope`.
    func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse)

    /// Whether this authorizer can authorize requests at all (it has a usable token or refresh
    /// token and does not need a new sign-in).
    var canAuthorize: Bool { get async }

    /// The signed-in user, when known.
    var user: AuthState.User? { get async }
}

extension Authorizer {
    /// Authorizes and sends `request` with a shared ``URLSessionTransport``, retrying once on
    /// `invalid_token` when authorizing again gives another token.
    ///
    /// - Parameter request: The request.
    /// - Returns: The body and response of the last attempt.
    /// - Throws: As ``authorize(_:)``; ``BearerError/Kind/network``; ``OAuthError`` for `insufficient_scope`.
    public func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await data(for: request, sendingWith: URLSessionTransport.shared)
    }

    /// Authorizes and sends `request` with `transport`, retrying once on `invalid_token` when
    /// authorizing again gives another token: the default ``data(for:)``, with the transport given.
    package func data(
        for request: URLRequest,
        sendingWith transport: any HTTPTransport
    ) async throws -> (Data, HTTPURLResponse) {
        let authorized = try await authorize(request)
        let sent = try TransportRequest(authorized)
        let response = try await AuthSession.sendAuthorized(sent, using: transport) {
            let again = try TransportRequest(await self.authorize(request))
            let header = "Authorization"
            return again.headerFields[header] == sent.headerFields[header] ? nil : again
        }
        guard let http = HTTPURLResponse(response, url: sent.url) else {
            throw BearerError.invalidResponse("\(sent.url.host ?? "The server") sent an unreadable response.")
        }
        return (response.body, http)
    }
}
