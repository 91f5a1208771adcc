/// Where a client that authenticates with `private_key_jwt` (RFC 7523 §2.2, OpenID Connect Core
/// §9) gets the ES256 key its ``ClientAssertion``s are signed with
/// (``AuthSession/Configuration/clientKeys``).
///
/// The key is a ``DPoPKey``, the signer Bearer already uses for DPoP proofs, so any signer fits:
/// the platform's (`PlatformDPoPKeys` in `import Bearer`, a key kept in the keychain or the Secure
/// Enclave), or a fleet's KMS or HSM. ``StaticClientKey`` serves one key for every client.
///
/// ```swift
/// var configuration = AuthSession.Configuration()
/// configuration.clientKeys = StaticClientKey(try PlatformDPoPKeys().key(for: savedRecord))
/// ```
public protocol ClientKeySource: Sendable {
    /// The key `client` signs its assertions for `server` with.
    ///
    /// - Parameters:
    ///   - client: The client, whose ``Client/authentication`` is ``ClientAuthentication/privateKeyJWT``.
    ///     Its ``Client/id`` is empty when the key is asked for to register a new client (RFC 7591),
    ///     whose public half is then sent as the registration's `jwks`.
    ///   - server: The server the assertion is for.
    /// - Returns: The key.
    /// - Throws: When the key cannot be had; nothing is sent then.
    func key(for client: Client, at server: AuthorizationServer) async throws -> any DPoPKey
}

/// One key for every client and server: the key a client registered with the server (its public
/// half is what ``ClientAssertion/publicKeySet(of:)`` prints).
public struct StaticClientKey: ClientKeySource {
    /// The key.
    let key: any DPoPKey

    /// Creates the source.
    ///
    /// - Parameter key: The key every assertion is signed with.
    public init(_ key: any DPoPKey) {
        self.key = key
    }

    /// The key, whatever the client and server.
    ///
    /// - Parameters:
    ///   - client: The client.
    ///   - server: The server.
    /// - Returns: The key this source was created with.
    public func key(for client: Client, at server: AuthorizationServer) async throws -> any DPoPKey { key }
}
