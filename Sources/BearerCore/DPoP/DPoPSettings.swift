/// When a session uses DPoP (RFC 9449) and where its keys come from: the DPoP part of
/// ``AuthSession/Configuration``.
///
/// A session that signed in with DPoP keeps using it for the life of its grant, whatever these
/// settings say later; a session that signed in with Bearer tokens stays Bearer. These settings
/// decide only what the next sign-in does.
///
/// ```swift
/// var configuration = AuthSession.Configuration()
/// configuration.dpop = DPoPSettings(use: .required, keys: PlatformDPoPKeys())
/// ```
public struct DPoPSettings: Sendable {
    /// When a sign-in binds its grant to a key.
    public enum Use: Sendable, Hashable {
        /// Never: sign-ins get Bearer tokens.
        case never
        /// When the server lists ES256 in `dpop_signing_alg_values_supported` (RFC 9449 §5.1).
        /// A server that answers with a Bearer token all the same is used with Bearer tokens.
        case whenAdvertised
        /// Always: proofs are sent whatever the server's metadata says, and a sign-in whose server
        /// answers with a Bearer token fails (its grant is revoked).
        case required
    }

    /// When a sign-in binds its grant to a key; ``Use/whenAdvertised`` by default.
    public var use: Use
    /// Makes the keys of new sign-ins and finds saved sessions' keys; `nil` when none is
    /// configured, which makes sign-ins use Bearer tokens and DPoP sessions fail with
    /// ``BearerError/Kind/proofOfPossession`` (kept as they are). `import Bearer`'s entry points
    /// that send with the shared `URLSessionTransport` fill in `PlatformDPoPKeys()`.
    public var keys: (any DPoPKeySource)?
    /// The nonces servers sent and the key last rebuilt, shared by every session configured with
    /// this value.
    let memory = DPoPMemory()

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - use: When a sign-in binds its grant to a key.
    ///   - keys: Where keys come from.
    public init(use: Use = .whenAdvertised, keys: (any DPoPKeySource)? = nil) {
        self.use = use
        self.keys = keys
    }

    /// The key `state`'s grant is bound to, or `nil` for a Bearer grant.
    ///
    /// - Throws: ``BearerError/Kind/proofOfPossession`` when the grant's record holds a DPoP token
    ///   but no key, when no key source is configured, or when the source cannot rebuild the key.
    func key(of state: AuthState) throws -> (any DPoPKey)? {
        guard let record = state.dpopKey else {
            guard state.accessTokenType == .dpop else { return nil }
            throw BearerError.proofOfPossession(
                "The saved session holds a DPoP token but its record has no DPoP key, so neither the token nor "
                    + "the refresh token can be used (a DPoP token is never sent as a Bearer token). The session "
                    + "was kept as it is: restore its record, or sign in again to replace it.")
        }
        if let key = memory.key(for: record) { return key }
        guard let keys else {
            throw BearerError.proofOfPossession(
                "The session's grant is bound to DPoP key \(record.thumbprint), but no DPoP key source is "
                    + "configured (AuthSession.Configuration.dpop.keys); nothing was sent and the session was kept. "
                    + "Configure PlatformDPoPKeys() from Bearer, or the source that made the key.")
        }
        let key: any DPoPKey
        do {
            key = try keys.key(for: record)
        } catch let error as BearerError {
            throw error
        } catch {
            throw BearerError.proofOfPossession(
                "The session's DPoP key \(record.thumbprint) (\(record.kind)) could not be rebuilt "
                    + "(\(type(of: error))); nothing was sent and the session was kept.",
                underlyingError: error)
        }
        guard key.record.publicKey == record.publicKey else {
            throw BearerError.proofOfPossession(
                "The DPoP key source rebuilt another key than the session's \(record.thumbprint); nothing was "
                    + "sent and the session was kept.")
        }
        memory.keep(key, for: record)
        return key
    }

    /// Whether a sign-in at `server` binds its grant to a key.
    func signInUsesDPoP(at server: AuthorizationServer) -> Bool {
        switch use {
        case .never: false
        case .whenAdvertised: server.dpopSigningAlgorithms?.contains("ES256") ?? false
        case .required: true
        }
    }
}
