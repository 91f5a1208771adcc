#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// When a sign-in sends its authorization request as a signed request object (JAR, RFC 9101):
/// the request's parameters as claims of a JWT signed with the client's key
/// (``AuthSession/Configuration/clientKeys``), so that the server can tell they came from the
/// client unchanged. Where the request is pushed (RFC 9126), the request object is what is pushed.
///
/// ```swift
/// var configuration = AuthSession.Configuration()
/// configuration.clientKeys = StaticClientKey(clientKey)
/// configuration.requestObjects = .always
/// ```
public enum RequestObjectUse: Sendable, Hashable {
    /// Never. A server that requires signed request objects (`require_signed_request_object`) is
    /// refused before anything is sent.
    case never
    /// When the server's metadata says it requires them (`require_signed_request_object`).
    case whenRequired
    /// Always.
    case always

    /// Whether a sign-in at `server` signs its request.
    ///
    /// - Throws: ``BearerError/Kind/invalidConfiguration`` when this setting and the server's
    ///   metadata disagree: signing turned off for a server that requires it, or a server whose
    ///   `request_object_signing_alg_values_supported` leaves out ES256, the one algorithm Bearer
    ///   signs with.
    func signs(at server: AuthorizationServer) throws -> Bool {
        let required = server.requiresSignedRequestObjects == true
        switch self {
        case .never:
            guard !required else {
                throw BearerError.invalidConfiguration(
                    "\(server.issuer.absoluteString) requires signed request objects (require_signed_request_object, "
                        + "RFC 9101), and they are turned off (Configuration.requestObjects is .never); set it to "
                        + ".whenRequired and configure the client's key (Configuration.clientKeys). Nothing was sent.")
            }
            return false
        case .whenRequired, .always:
            guard self == .always || required else { return false }
            if let algorithms = server.requestObjectSigningAlgorithms, !algorithms.contains(JWSAlgorithm.es256.rawValue)
            {
                throw BearerError.invalidConfiguration(
                    "\(server.issuer.absoluteString) takes request objects signed with "
                        + "\(algorithms.joined(separator: ", ")) only (request_object_signing_alg_values_supported), and "
                        + "Bearer signs them with ES256; ask its operator to accept ES256. Nothing was sent.")
            }
            return true
        }
    }
}
