#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

// Spellings of 0.1.0 kept for one minor release; each says what replaces it.
extension AuthorizationServer {
    /// Fetches a server's metadata, as ``AuthorizationServerClient/discover(issuer:allowingInsecureLoopback:)``
    /// does with a client on `transport`.
    ///
    /// - Parameters:
    ///   - issuer: The issuer identifier, e.g. `https://accounts.google.com`.
    ///   - allowingInsecureLoopback: Whether an http issuer on a loopback address is acceptable.
    ///   - transport: Sends the HTTP requests.
    /// - Returns: The server's configuration.
    /// - Throws: As ``AuthorizationServerClient/discover(issuer:allowingInsecureLoopback:)``.
    @available(
        *, deprecated,
        message: "Use AuthorizationServerClient(transport: transport).discover(issuer:allowingInsecureLoopback:)"
    )
    public static func discover(
        issuer: URL,
        allowingInsecureLoopback: Bool = false,
        using transport: some HTTPTransport
    ) async throws -> AuthorizationServer {
        try await AuthorizationServerClient(transport: transport)
            .discover(issuer: issuer, allowingInsecureLoopback: allowingInsecureLoopback)
    }
}
