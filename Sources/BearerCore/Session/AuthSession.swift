#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A signed-in session that stamps requests, refreshes its token once
/// however many tasks ask at the same time, and saves every new state before using it.
///
/// ```swift
/// let session = try await AuthSession.restore(from: FileSessionStore(directory: sessionsFolder))
/// let about = try await session?.data(for: URLRequest(url: driveAbout))  // (Data, HTTPURLResponse)?
/// ```
///
/// A session comes one way: a sign-in (``signIn(to:as:scopes:using:store:key:additionalParameters:tokenParameters:transport:clock:configuration:)``
/// or ``signInWithDeviceCode(to:as:scopes:store:key:transport:clock:configuration:progress:)``, saved
/// before the session exists), or ``restore(key:from:transport:clock:configuration:)`` at launch.
///
/// - One refresh at a time: concurrent callers share one token request and its result. The refresh
///   runs inside the store's exclusive lock, re-reading the stored session first, so sessions in
///   other processes sharing a ``FileSessionStore`` never refresh the same grant twice.
/// - Persist before use: a refreshed session (with a rotated refresh token) is saved before any
///   caller gets the new access token; if saving fails, callers get that error and the session
///   keeps the new tokens in memory.
/// - Failures classified: `invalid_grant` marks the session as needing a new sign-in (saved, and
///   later calls fail without a token request); network errors and 5xx leave the session
///   unchanged, and a `Retry-After` is honoured. A stale token is never stamped to hide a failed
///   refresh.
/// - Every error a method throws passes through ``Configuration/rewriteError``.
///
/// Its rules, the one shared run among them, are a value, `AuthSession.StateMachine`; the actor performs
/// what that value decides.
public actor AuthSession {
    /// The key the session is saved under.
    public nonisolated let key: String
    /// Where tokens may go, when they are refreshed, and how errors are reported.
    public nonisolated let configuration: Configuration

    let store: any SessionStore
    let transport: any HTTPTransport
    let clock: WallClock
    var machine: StateMachine
    /// Talks to the session's authorization server.
    var serverClient: AuthorizationServerClient {
        AuthorizationServerClient(transport: transport, clock: clock, configuration: configuration)
    }
    private var observers: [UUID: AsyncStream<AuthState>.Continuation] = [:]

    private init(
        machine: StateMachine,
        store: any SessionStore,
        key: String,
        transport: any HTTPTransport,
        clock: WallClock,
        configuration: Configuration
    ) {
        self.machine = machine
        self.store = store
        self.key = key
        self.transport = transport
        self.clock = clock
        self.configuration = configuration
    }

    /// Saves a new session under `key` and returns it: one made from tokens obtained elsewhere
    /// (``AuthState/init(server:client:accessToken:tokenType:expiresIn:refreshToken:idToken:scopes:clock:)``).
    /// The session exists only once it is saved, so it is never left unsaved.
    ///
    /// - Parameters:
    ///   - state: The new session.
    ///   - store: Where it is saved.
    ///   - key: The key it is saved under; any session saved there before is replaced.
    ///   - transport: Sends token requests and ``data(for:)->_`` requests.
    ///   - clock: Decides freshness, and the skew allowed when checking ID tokens.
    ///   - configuration: Where tokens may go, when they are refreshed, and how errors are reported;
    ///     `nil` for ``Configuration/recommended(for:)``.
    /// - Returns: The saved session.
    /// - Throws: The store's error when the session cannot be saved.
    public static func save(
        _ state: AuthState,
        to store: any SessionStore,
        key: String = "default",
        transport: any HTTPTransport,
        clock: WallClock = .system,
        configuration: Configuration? = nil
    ) async throws -> AuthSession {
        let session = AuthSession(
            machine: StateMachine(stored: state),
            store: store,
            key: key,
            transport: transport,
            clock: clock,
            configuration: configuration ?? .recommended(for: state.server)
        )
        try await session.replace(with: state)
        return session
    }

    /// Restores the session saved under `key`.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - store: The store.
    ///   - transport: Sends requests.
    ///   - clock: Decides freshness, and the skew allowed when checking ID tokens.
    ///   - configuration: Where tokens may go, when they are refreshed, and how errors are reported;
    ///     `nil` for ``Configuration/recommended(for:)`` of the saved session's server.
    /// - Returns: The session, or `nil` when none is saved.
    /// - Throws: The store's error when the saved item cannot be read (it is left in place).
    public static func restore(
        key: String = "default",
        from store: any SessionStore,
        transport: any HTTPTransport,
        clock: WallClock = .system,
        configuration: Configuration? = nil
    ) async throws -> AuthSession? {
        try await restore(
            key: key, from: store, transport: transport, clock: clock, configuration: configuration,
            platform: nil)
    }

    /// Restores the session saved under `key`, with `platform`'s DPoP keys and signature verifier where
    /// the configuration has none.
    @_spi(Bridge) public static func restore(
        key: String,
        from store: any SessionStore,
        transport: any HTTPTransport,
        clock: WallClock,
        configuration: Configuration?,
        platform: PlatformCryptography?
    ) async throws -> AuthSession? {
        let stored: AuthState?
        do {
            stored = try await store.load(key: key)
        } catch {
            throw (configuration ?? Configuration()).rewriteError(error)
        }
        guard let stored else { return nil }
        return restoring(
            stored, key: key, from: store, transport: transport, clock: clock, configuration: configuration,
            platform: platform)
    }

    /// The session of `stored`, read from `store` under `key`.
    static func restoring(
        _ stored: AuthState,
        key: String,
        from store: any SessionStore,
        transport: any HTTPTransport,
        clock: WallClock,
        configuration: Configuration?,
        platform: PlatformCryptography?
    ) -> AuthSession {
        AuthSession(
            machine: StateMachine(stored: stored),
            store: store,
            key: key,
            transport: transport,
            clock: clock,
            configuration: .resolved(configuration, for: stored.server, platform: platform)
        )
    }

    // MARK: - Reading the session

    /// The current session.
    public var state: AuthState { machine.state }

    /// Whether the session can authorize requests.
    public var canAuthorize: Bool { machine.canAuthorize }

    /// The signed-in user, from the ID token.
    public var user: AuthState.User? { machine.state.user }

    // MARK: - Authorizing requests

    /// Returns `request` with `Authorization: Bearer`, refreshing first when the token is within
    /// the leeway of expiry.
    ///
    /// - Parameter request: The request.
    /// - Returns: The authorized request.
    /// - Throws: ``BearerError`` when the URL may not receive a token, when the user must sign in
    ///   again, or when a refresh fails; an ``OAuthError`` the server reported.
    public func authorize(_ request: TransportRequest) async throws -> TransportRequest {
        try await funnel { try await self.presentation(for: request.url).stamped(request) }
    }

    /// Authorizes and sends `request` with the session's transport.
    ///
    /// On `401` with `WWW-Authenticate: Bearer error="invalid_token"` (or `DPoP error="invalid_token"`)
    /// the token is refreshed once (unless another task already replaced it) and the request retried
    /// once. A `403` with `error="insufficient_scope"` becomes an ``OAuthError`` with code
    /// ``OAuthError/Code/insufficientScope`` naming the scopes the server asked for. A DPoP session's
    /// request carries a new proof each time, with the resource's latest nonce, and is sent once
    /// more when the resource asks for a new one (`use_dpop_nonce`).
    ///
    /// - Parameter request: The request.
    /// - Returns: The response of the last attempt.
    /// - Throws: As ``authorize(_:)->TransportRequest``; ``BearerError/Kind/network`` when no response comes;
    ///   ``OAuthError`` for `insufficient_scope`.
    public func data(for request: TransportRequest) async throws -> TransportResponse {
        try await funnel {
            let presentation = try await self.presentation(for: request.url)
            var response = try await presentation.send(request, using: self.transport)
            if Self.rejectsToken(response, scheme: presentation.scheme) {
                let again = try await self.presentation(for: request.url, .otherThan(presentation.token))
                response = try await again.send(request, using: self.transport)
            }
            try Self.checkScope(of: response, scheme: presentation.scheme)
            return response
        }
    }

    /// A fresh access token, refreshing first when needed. A DPoP session's token
    /// (``AuthState/accessTokenType``) is accepted only with a proof: send requests with
    /// ``data(for:)->TransportResponse`` or ``authorize(_:)->TransportRequest`` instead.
    ///
    /// - Returns: The token.
    /// - Throws: As ``authorize(_:)->TransportRequest``.
    public func validAccessToken() async throws -> AccessToken {
        try await funnel { try await self.freshAccessToken() }
    }

    /// Refreshes now, whatever the token's expiry. A refresh already under way is shared; a run
    /// that is not refreshing is waited for, then a refresh follows.
    ///
    /// - Returns: The refreshed session.
    /// - Throws: As ``authorize(_:)->TransportRequest``.
    @discardableResult
    public func refresh() async throws -> AuthState {
        try await funnel { try await self.freshState(.refresh(after: self.machine.state.accessToken)) }
    }

    // MARK: - Internals shared by the extensions

    /// Runs `body`, passing whatever it throws through ``Configuration/rewriteError`` once: every
    /// public method that can fail goes through here.
    @_spi(Bridge) public func funnel<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch {
            throw configuration.rewriteError(error)
        }
    }

    /// The header fields that authorize a `method` request to `url` with a fresh token, once `url`
    /// is known to be allowed one (https, or allowed loopback http, and an allowed host):
    /// `Authorization: Bearer …`, or `Authorization: DPoP …` and a new `DPoP` proof, with `nonce`
    /// when given (a `DPoP-Nonce` another client received from `url`'s server).
    @_spi(Bridge) public func authorizationHeaderFields(
        method: String,
        url: URL?,
        nonce: String? = nil
    ) async throws -> HTTPHeaderFields {
        if let nonce, !DPoPMemory.isValid(nonce) {
            throw BearerError.invalidConfiguration(
                "The nonce given is not a DPoP nonce (RFC 9449 §8.1: printable ASCII without spaces, quotes or "
                    + "backslashes); nothing was sent.")
        }
        let presentation = try await presentation(for: url)
        guard let url, presentation.prover != nil else {
            return presentation.token.authorizationHeaderValue.map { ["Authorization": $0] } ?? [:]
        }
        if let nonce { configuration.dpop.memory.keep(nonce, for: url) }
        let stamped = try await presentation.stamped(TransportRequest(method: .init(rawValue: method), url: url))
        var fields: HTTPHeaderFields = [:]
        for name in ["Authorization", "DPoP"] { fields[name] = stamped.headerFields[name] }
        return fields
    }

    // MARK: - Changes

    /// A stream of the session's states: each refresh, sign-in-required mark, scope upgrade,
    /// sign-in and sign-out. It starts with the next change; only the newest state is buffered.
    ///
    /// - Returns: The stream; cancel the iterating task to stop it.
    public func stateChanges() -> AsyncStream<AuthState> {
        let (stream, continuation) = AsyncStream.makeStream(of: AuthState.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        observers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        return stream
    }

    private func removeObserver(_ id: UUID) {
        observers[id] = nil
    }

    func notifyObservers() {
        for continuation in observers.values { continuation.yield(machine.state) }
    }
}
