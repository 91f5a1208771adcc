#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one place Bearer talks to an authorization server: the token, revocation, device
/// authorization, metadata and UserInfo endpoints, one file each, reached through one transport.
///
/// Each call takes a request value, sends it, and reads the answer into a value; the values
/// themselves (``AuthorizationServer``, ``AuthState``, the token and revocation requests) do no I/O.
/// A session makes its own client; an app uses one to discover a server or read its UserInfo.
///
/// ```swift
/// let client = AuthorizationServerClient(transport: transport)
/// let server = try await client.discover(issuer: URL(string: "https://accounts.example.com")!)
/// ```
public struct AuthorizationServerClient: Sendable {
    /// The largest body read as an OAuth answer (1 MiB); token responses are a few kilobytes.
    static let maximumBodySize = 1 << 20

    /// Sends every request.
    let transport: any HTTPTransport
    /// Gives the time of receipt (expiries, `Retry-After` dates), and the device flow's waits.
    let clock: WallClock
    /// When a request must have its answer: the end of the store's claim on the session while it
    /// is held (see ``ExclusiveSessionAccess/exchangeDeadline``), read again while waiting.
    let deadline: @Sendable () -> ContinuousClock.Instant?
    /// Where DPoP keys come from and the nonces servers sent; `nil` makes no proof.
    let dpop: DPoPSettings?
    /// How ID tokens' signatures are checked; `nil` checks none.
    let idTokenSignatures: IDTokenSignatureSettings?
    /// The keys of `private_key_jwt` clients; `nil` when none is configured.
    let clientKeys: (any ClientKeySource)?
    /// What those clients' assertions name as their audience.
    let clientAssertionAudience: ClientAssertionAudience
    /// The rules requests and sign-ins are held to before they are sent.
    let securityProfile: SecurityProfile

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - transport: Sends the requests.
    ///   - clock: Gives the time of receipt, and the device flow's waits.
    ///   - dpop: Where the keys of DPoP sessions come from, for ``userInfo(for:)`` on a DPoP
    ///     session; `nil` for none.
    public init(transport: any HTTPTransport, clock: WallClock = .system, dpop: DPoPSettings? = nil) {
        self.init(transport: transport, clock: clock, dpop: dpop, deadline: { nil })
    }

    /// Creates a client that proves possession of DPoP keys from `dpop`, and whose requests are
    /// given up at `deadline`.
    init(
        transport: any HTTPTransport,
        clock: WallClock,
        dpop: DPoPSettings?,
        idTokenSignatures: IDTokenSignatureSettings? = nil,
        clientKeys: (any ClientKeySource)? = nil,
        clientAssertionAudience: ClientAssertionAudience = .issuer,
        securityProfile: SecurityProfile = .standard,
        deadline: @escaping @Sendable () -> ContinuousClock.Instant? = { nil }
    ) {
        self.transport = transport
        self.clock = clock
        self.dpop = dpop
        self.idTokenSignatures = idTokenSignatures
        self.clientKeys = clientKeys
        self.clientAssertionAudience = clientAssertionAudience
        self.securityProfile = securityProfile
        self.deadline = deadline
    }

    /// The client of a session configured with `configuration`: its DPoP settings, its checks of
    /// ID-token signatures, its client keys and their assertions' audience, and its security profile.
    init(transport: any HTTPTransport, clock: WallClock, configuration: AuthSession.Configuration) {
        self.init(
            transport: transport, clock: clock, dpop: configuration.dpop,
            idTokenSignatures: configuration.idTokenSignatures, clientKeys: configuration.clientKeys,
            clientAssertionAudience: configuration.clientAssertionAudience,
            securityProfile: configuration.securityProfile)
    }

    /// A client whose requests are given up when `access`'s claim on the session ends.
    func bounded(by access: some ExclusiveSessionAccess) -> AuthorizationServerClient {
        AuthorizationServerClient(
            transport: transport, clock: clock, dpop: dpop, idTokenSignatures: idTokenSignatures,
            clientKeys: clientKeys, clientAssertionAudience: clientAssertionAudience, securityProfile: securityProfile
        ) { access.exchangeDeadline }
    }

    /// Sends `request` to the server, reading at most ``maximumBodySize`` bytes of answer; a
    /// failure to get any answer is ``BearerError/Kind/network``.
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        do {
            guard deadline() != nil else {
                return try await transport.send(request, maximumBodySize: Self.maximumBodySize)
            }
            return try await bounded(host: request.url.host ?? "the server") { [transport] in
                try await transport.send(request, maximumBodySize: Self.maximumBodySize)
            }
        } catch {
            throw BearerError.reportingNoResponse(error, from: request.url.host)
        }
    }

    /// POSTs `parameters` to `url`, authenticated as `client` at `server`, with a DPoP proof by
    /// `proofKey` when one is given (sent once more with the server's new nonce when it asks).
    func postForm(
        _ parameters: [FormParameter],
        to url: URL,
        server: AuthorizationServer,
        client: Client,
        alwaysSendingClientID: Bool = false,
        provingWith proofKey: (any DPoPKey)? = nil
    ) async throws -> TransportResponse {
        try EndpointSecurity.check(url, allowingInsecureLoopback: server.allowsInsecureLoopback)
        try securityProfile.checkRequest(
            as: client, at: server, clientKeys: clientKeys, assertionAudience: clientAssertionAudience)
        let request = Self.formPost(
            to: url, parameters: parameters, as: client, at: server, alwaysSendingClientID: alwaysSendingClientID)
        let signsAssertions = Self.authenticationMethod(of: client, at: server) == .privateKeyJWT
        // Each attempt (a DPoP nonce retry is one) carries its own assertion, with its own jti.
        let sendOnce: @Sendable (TransportRequest) async throws -> TransportResponse = { [self] request in
            try await send(signsAssertions ? signingAssertion(request, of: client, at: server) : request)
        }
        guard let proofKey else { return try await sendOnce(request) }
        return try await prover(for: proofKey).send(request, presenting: nil, through: sendOnce)
    }

    /// Makes `proofKey`'s proofs, with the nonces of this client's settings.
    func prover(for proofKey: any DPoPKey) -> DPoPProver {
        DPoPProver(key: proofKey, memory: (dpop ?? DPoPSettings()).memory, clock: clock)
    }

    /// The key `state`'s grant is bound to, or `nil` for a Bearer grant.
    ///
    /// - Throws: ``BearerError/Kind/proofOfPossession`` when the grant is bound but its key is
    ///   missing or cannot be rebuilt: nothing bound to it is sent without it.
    func proofKey(of state: AuthState) throws -> (any DPoPKey)? {
        guard state.dpopKey != nil || state.accessTokenType == .dpop else { return nil }
        return try (dpop ?? DPoPSettings()).key(of: state)
    }

    /// Runs `exchange`, giving it up when ``deadline`` passes.
    private func bounded<Value: Sendable>(
        host: String,
        _ exchange: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let deadline = self.deadline
        return try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await exchange() }
            group.addTask {
                while let end = deadline() {
                    let left = ContinuousClock.now.duration(to: end)
                    guard left > .zero else { return nil }
                    try await Task.sleep(for: min(left, .milliseconds(250)))
                }
                try await Task.sleep(for: .seconds(86_400 * 365))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw BearerError.network(
                    "No answer from \(host) before the session store's claim on the session ran out (the store "
                        + "could not renew it: its database was unreachable, or the process too busy); the request "
                        + "was given up so that no other instance refreshes with the same token meanwhile. Try again."
                )
            }
            return value
        }
    }
}
