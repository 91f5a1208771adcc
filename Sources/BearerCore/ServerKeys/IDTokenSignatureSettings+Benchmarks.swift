#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension IDTokenSignatureSettings {
    /// Checks `idToken`'s signature as a sign-in's token answer is checked, against the keys at
    /// `server`'s ``AuthorizationServer/jwksURI`` fetched through `transport` (once, then kept in
    /// these settings), for the benchmarks.
    ///
    /// - Throws: What a sign-in's check throws.
    @_spi(Benchmarks) public func checkSignature(
        of idToken: IDToken, from server: AuthorizationServer, transport: any HTTPTransport
    ) async throws {
        var configuration = AuthSession.Configuration()
        configuration.idTokenSignatures = self
        let client = AuthorizationServerClient(transport: transport, clock: .system, configuration: configuration)
        try await client.checkIDTokenSignature(of: TokenResponse(accessToken: nil, idToken: idToken), from: server)
    }
}
