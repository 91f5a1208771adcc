@_spi(Bridge) import BearerCore
import Foundation

// The entry points of BearerCore take the transport that sends their requests; these are the same
// calls with the process's one shared ``URLSessionTransport``, which is what almost every app wants:
// one connection pool, not a new `URLSession` (and new connections) per call. They also give the
// sessions the platform's DPoP keys (``PlatformDPoPKeys/keeping(sessionsIn:)``: the Secure
// Enclave for the keychain store) where the configuration names none.

extension AuthSession {
    /// Signs in with one call, sending requests with the process's one shared ``URLSessionTransport``: see
    /// ``signIn(to:as:scopes:using:store:key:additionalParameters:tokenParameters:transport:clock:configuration:)``.
    ///
    /// - Parameters:
    ///   - server: The authorization server, such as ``AuthorizationServer/google``.
    ///   - client: The client; its redirect URI is used unless the agent has its own.
    ///   - scopes: The scopes to ask for.
    ///   - agent: Shows the page: see ``AuthorizationAgent``.
    ///   - store: Where the session is saved.
    ///   - key: The key it is saved under (`"default"`); a session saved there before is replaced.
    ///   - additionalParameters: Extra authorization parameters, such as `login_hint` or `prompt`.
    ///   - tokenParameters: Extra parameters of the code exchange, such as RFC 8707 `resource`.
    ///   - clock: Decides freshness, and the skew allowed when checking ID tokens.
    ///   - configuration: Where tokens may go, and more; `nil` for ``Configuration/recommended(for:)``.
    /// - Returns: The saved session.
    /// - Throws: `CancellationError` when the user closed the page or the task was cancelled; else
    ///   as the call it forwards to.
    public static func signIn(
        to server: AuthorizationServer,
        as client: Client,
        scopes: [String],
        using agent: some AuthorizationAgent,
        store: any SessionStore,
        key: String = "default",
        additionalParameters: [String: String] = [:],
        tokenParameters: [String: String] = [:],
        clock: WallClock = .system,
        configuration: Configuration? = nil
    ) async throws -> AuthSession {
        try await signIn(
            to: server, as: client, scopes: scopes, using: agent, store: store, key: key,
            additionalParameters: additionalParameters, tokenParameters: tokenParameters,
            transport: URLSessionTransport.shared, clock: clock,
            configuration: .resolved(
                configuration, for: server, platform: .keeping(sessionsIn: store)))
    }

    /// Signs in with the device authorization grant (RFC 8628), sending requests with the process's one shared
    /// ``URLSessionTransport``: see
    /// ``signInWithDeviceCode(to:as:scopes:store:key:transport:clock:configuration:progress:)``.
    ///
    /// - Parameters:
    ///   - server: The server; it must have a device authorization endpoint.
    ///   - client: The client.
    ///   - scopes: The scopes to ask for.
    ///   - store: Where the session is saved.
    ///   - key: The key it is saved under.
    ///   - clock: Gives the time, and the skew allowed when checking ID tokens.
    ///   - configuration: Where tokens may go, and more; `nil` for ``Configuration/recommended(for:)``.
    ///   - progress: Told the code to show, each wait and each slow-down; awaited each time.
    /// - Returns: The saved session.
    /// - Throws: As the call it forwards to.
    public static func signInWithDeviceCode(
        to server: AuthorizationServer,
        as client: Client,
        scopes: [String],
        store: any SessionStore,
        key: String = "default",
        clock: WallClock = .system,
        configuration: Configuration? = nil,
        progress: @escaping @Sendable (DeviceSignInProgress) async -> Void
    ) async throws -> AuthSession {
        try await signInWithDeviceCode(
            to: server, as: client, scopes: scopes, store: store, key: key, transport: URLSessionTransport.shared,
            clock: clock,
            configuration: .resolved(
                configuration, for: server, platform: .keeping(sessionsIn: store)),
            progress: progress)
    }

    /// Restores the session saved under `key`, sending requests with the process's one shared
    /// ``URLSessionTransport``: see ``restore(key:from:transport:clock:configuration:)``.
    ///
    /// - Parameters:
    ///   - key: The key (`"default"`, as ``signIn(to:as:scopes:using:store:key:additionalParameters:tokenParameters:clock:configuration:)`` uses).
    ///   - store: The store.
    ///   - clock: Decides freshness, and the skew allowed when checking ID tokens.
    ///   - configuration: Where tokens may go, and more; `nil` for ``Configuration/recommended(for:)``.
    /// - Returns: The session, or `nil` when none is saved.
    /// - Throws: The store's error when the saved item cannot be read (it is left in place).
    public static func restore(
        key: String = "default",
        from store: any SessionStore,
        clock: WallClock = .system,
        configuration: Configuration? = nil
    ) async throws -> AuthSession? {
        try await restore(
            key: key, from: store, transport: URLSessionTransport.shared, clock: clock, configuration: configuration,
            platform: .keeping(sessionsIn: store))
    }

    /// Saves a session that did not come from a sign-in (tokens obtained elsewhere: see
    /// ``AuthState/init(server:client:accessToken:tokenType:expiresIn:refreshToken:idToken:scopes:clock:)``),
    /// sending its requests with the process's one shared ``URLSessionTransport``.
    ///
    /// - Parameters:
    ///   - state: The session.
    ///   - store: Where it is saved.
    ///   - key: The key it is saved under.
    ///   - clock: Decides freshness, and the skew allowed when checking ID tokens.
    ///   - configuration: Where tokens may go, and more; `nil` for ``Configuration/recommended(for:)``.
    /// - Returns: The saved session.
    /// - Throws: The store's error when the session cannot be saved.
    public static func save(
        _ state: AuthState,
        to store: any SessionStore,
        key: String = "default",
        clock: WallClock = .system,
        configuration: Configuration? = nil
    ) async throws -> AuthSession {
        try await save(
            state, to: store, key: key, transport: URLSessionTransport.shared, clock: clock,
            configuration: .resolved(
                configuration, for: state.server, platform: .keeping(sessionsIn: store)))
    }
}

extension AuthorizationServerClient {
    /// A client that sends its requests with the process's one shared ``URLSessionTransport``, and
    /// finds DPoP sessions' keys with ``PlatformDPoPKeys``.
    ///
    /// ```swift
    /// let server = try await AuthorizationServerClient().discover(issuer: issuer)
    /// ```
    ///
    /// - Parameter clock: Gives the time of receipt, and the device flow's waits.
    public init(clock: WallClock = .system) {
        self.init(
            transport: URLSessionTransport.shared, clock: clock, dpop: DPoPSettings(keys: PlatformDPoPKeys()))
    }
}
