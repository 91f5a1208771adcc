@_spi(Bridge) import BearerCore

#if canImport(FoundationNetworking)
    import Foundation
    package import FoundationNetworking
#else
    package import Foundation
#endif

extension URLRequest {
    /// Sets `Authorization: Bearer <token>` (RFC 6750 §2.1), replacing any previous value. An empty
    /// token authorizes nothing: it removes the header rather than send `Bearer ` alone.
    ///
    /// - Parameter token: The access token.
    package mutating func setBearerToken(_ token: AccessToken) {
        setValue(token.authorizationHeaderValue, forHTTPHeaderField: "Authorization")
    }
}
