/// How a session checks the signatures of the ID tokens its sign-ins and refreshes bring: the
/// ID-token part of ``AuthSession/Configuration``.
///
/// Each ID token is checked against the keys its server publishes at
/// ``AuthorizationServer/jwksURI`` (OpenID Connect Core §3.1.3.7 step 6, §10.1) before any of its
/// claims is read: the algorithm must be one of ``algorithms`` (never `none` or an HMAC
/// algorithm), the token may not name its own key, and one of the server's keys that fits the
/// algorithm must have made the signature. The keys are kept in memory per server for as long as
/// the server's `Cache-Control` allows, and fetched again for a key they do not hold at most once a
/// minute.
///
/// ```swift
/// var configuration = AuthSession.Configuration()
/// configuration.idTokenSignatures = IDTokenSignatureSettings(
///     requirement: .required, verifier: PlatformSignatureVerifier())
/// ```
public struct IDTokenSignatureSettings: Sendable {
    /// When a missing check is an error.
    public enum Requirement: Sendable, Hashable {
        /// Signatures are checked wherever the server publishes keys and a verifier is configured;
        /// an ID token from a server that publishes none is read without (the TLS connection to
        /// the token endpoint vouches for it, as OpenID Connect Core §3.1.3.7 allows).
        case whenServerPublishesKeys
        /// Every ID token's signature is checked: a server without `jwks_uri`, or a session
        /// without a verifier, fails its sign-in (FAPI 2.0 and other profiles that ask for it).
        case required
    }

    /// When a missing check is an error; ``Requirement/whenServerPublishesKeys`` by default.
    public var requirement: Requirement
    /// Checks signatures; `nil` when none is configured. `import Bearer`'s entry points that send
    /// with the shared `URLSessionTransport` fill in `PlatformSignatureVerifier()`.
    public var verifier: (any JWSSignatureVerifier)?
    /// The algorithms accepted, from ``JWSAlgorithm/verifiable``; all of them by default.
    public var algorithms: Set<JWSAlgorithm>
    /// The server keys fetched, shared by every session configured with this value.
    let keys = ServerKeyCache()

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - requirement: When a missing check is an error.
    ///   - verifier: Checks signatures.
    ///   - algorithms: The algorithms accepted; values outside ``JWSAlgorithm/verifiable`` are ignored.
    public init(
        requirement: Requirement = .whenServerPublishesKeys,
        verifier: (any JWSSignatureVerifier)? = nil,
        algorithms: Set<JWSAlgorithm> = JWSAlgorithm.verifiable
    ) {
        self.requirement = requirement
        self.verifier = verifier
        self.algorithms = algorithms
    }
}
