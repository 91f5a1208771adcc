/// The rules a session's configuration is held to, beyond what each setting says: the profile
/// part of ``AuthSession/Configuration``.
///
/// ``fapi2`` holds every sign-in, refresh and request to the client rules of the FAPI 2.0
/// Security Profile, checked in one place before anything is sent; a setting or a server that
/// breaks one is refused with an error naming the rule. ``AuthSession/Configuration/fapi2(clientKeys:)``
/// makes a configuration that keeps them.
///
/// ```swift
/// var configuration = AuthSession.Configuration.fapi2(clientKeys: StaticClientKey(clientKey))
/// configuration.allowedHosts = ["api.bank.example"]
/// ```
public enum SecurityProfile: Sendable, Hashable {
    /// The settings decide, each on its own.
    case standard
    /// The FAPI 2.0 Security Profile's client rules: pushed authorization requests, PKCE with
    /// S256, DPoP-bound tokens, `private_key_jwt`, the redirect's `iss` (RFC 9207), ID tokens
    /// signed with PS256 or ES256 and checked against the server's keys, and no fallback from any
    /// of them.
    case fapi2
}
