#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// When a sign-in pushes its authorization request to the server first (RFC 9126), so that the
/// browser carries only a `request_uri` and the request itself never passes through it: the PAR
/// part of ``AuthSession/Configuration``.
///
/// A push that was to be made and failed fails the sign-in; it never falls back to sending the
/// request through the browser.
///
/// ```swift
/// var configuration = AuthSession.Configuration()
/// configuration.pushedAuthorization = .required
/// ```
public enum PushedAuthorizationUse: Sendable, Hashable {
    /// Never. A server that requires pushed requests (`require_pushed_authorization_requests`)
    /// is refused before anything is sent.
    case never
    /// When the server's metadata names a `pushed_authorization_request_endpoint`.
    case whenAdvertised
    /// Always: a server whose metadata names no such endpoint is refused before anything is sent.
    case required

    /// Where `server` takes a sign-in's pushed request, or `nil` when the request goes through the
    /// browser.
    ///
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when this setting and the server's
    ///   metadata disagree: a push required of a server without the endpoint, or a server that
    ///   requires pushed requests with pushing turned off.
    func endpoint(of server: AuthorizationServer) throws -> URL? {
        let endpoint = server.pushedAuthorizationRequestEndpoint
        switch self {
        case .never:
            guard server.requiresPushedAuthorizationRequests != true else {
                throw BearerError.invalidConfiguration(
                    "\(server.issuer.absoluteString) requires pushed authorization requests "
                        + "(require_pushed_authorization_requests), and pushing is turned off "
                        + "(Configuration.pushedAuthorization is .never); set it to .whenAdvertised. Nothing was sent.")
            }
            return nil
        case .whenAdvertised:
            guard let endpoint else {
                guard server.requiresPushedAuthorizationRequests != true else {
                    throw BearerError.invalidConfiguration(
                        "\(server.issuer.absoluteString) requires pushed authorization requests but names no "
                            + "pushed_authorization_request_endpoint; set AuthorizationServer."
                            + "pushedAuthorizationRequestEndpoint. Nothing was sent.")
                }
                return nil
            }
            return endpoint
        case .required:
            guard let endpoint else {
                throw BearerError.invalidConfiguration(
                    "Pushed authorization requests are required (Configuration.pushedAuthorization), but "
                        + "\(server.issuer.absoluteString) names no pushed_authorization_request_endpoint; set "
                        + "AuthorizationServer.pushedAuthorizationRequestEndpoint or use another server. Nothing was sent."
                )
            }
            return endpoint
        }
    }
}
