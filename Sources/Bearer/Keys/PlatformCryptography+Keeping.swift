@_spi(Bridge) public import BearerCore

extension PlatformCryptography {
    /// The platform's cryptography for sessions kept in `store`: its DPoP keys
    /// (``PlatformDPoPKeys/keeping(sessionsIn:)``) and ``PlatformSignatureVerifier``.
    @_spi(Bridge) public static func keeping(sessionsIn store: any SessionStore) -> PlatformCryptography {
        PlatformCryptography(
            dpopKeys: PlatformDPoPKeys.keeping(sessionsIn: store), signatureVerifier: PlatformSignatureVerifier())
    }
}
