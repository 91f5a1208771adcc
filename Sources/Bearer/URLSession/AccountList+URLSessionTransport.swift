@_spi(Bridge) import BearerCore

// AccountList's calls with the process's one shared ``URLSessionTransport`` and the platform's
// cryptography (DPoP keys, ID token signature checks) where the configuration names none, as
// AuthSession's are in AuthSession+URLSessionTransport.swift.

extension AccountList {
    /// Signs a user in and saves the session as that user's account, sending requests with the
    /// process's one shared ``URLSessionTransport``: see
    /// ``signIn(to:as:scopes:using:additionalParameters:tokenParameters:makingDefault:transport:clock:configuration:)``.
    ///
    /// - Parameters:
    ///   - server: The authorization server.
    ///   - client: The client.
    ///   - scopes: The scopes to ask for; include `openid` so the account can be told apart.
    ///   - agent: Shows the page.
    ///   - additionalParameters: Extra authorization parameters, such as Google's `prompt=select_account`.
    ///   - tokenParameters: Extra parameters of the code exchange.
    ///   - makingDefault: Whether the account becomes the default.
    ///   - clock: Decides freshness.
    ///   - configuration: Where tokens may go, and more; `nil` for ``AuthSession/Configuration/recommended(for:)``.
    /// - Returns: The account's saved session.
    /// - Throws: As the call it forwards to.
    public func signIn(
        to server: AuthorizationServer,
        as client: Client,
        scopes: [String],
        using agent: some AuthorizationAgent,
        additionalParameters: [String: String] = [:],
        tokenParameters: [String: String] = [:],
        makingDefault: Bool = false,
        clock: WallClock = .system,
        configuration: AuthSession.Configuration? = nil
    ) async throws -> AuthSession {
        try await signIn(
            to: server, as: client, scopes: scopes, using: agent, additionalParameters: additionalParameters,
            tokenParameters: tokenParameters, makingDefault: makingDefault, transport: URLSessionTransport.shared,
            clock: clock, configuration: .resolved(configuration, for: server, platform: .keeping(sessionsIn: store)))
    }

    /// Signs a user in with the device authorization grant and saves the session as that user's
    /// account, sending requests with the process's one shared ``URLSessionTransport``: see
    /// ``signInWithDeviceCode(to:as:scopes:makingDefault:transport:clock:configuration:progress:)``.
    ///
    /// - Parameters:
    ///   - server: The authorization server; it must have a device authorization endpoint.
    ///   - client: The client.
    ///   - scopes: The scopes to ask for.
    ///   - makingDefault: Whether the account becomes the default.
    ///   - clock: Decides freshness.
    ///   - configuration: Where tokens may go, and more; `nil` for ``AuthSession/Configuration/recommended(for:)``.
    ///   - progress: Told the code to show, and each wait.
    /// - Returns: The account's saved session.
    /// - Throws: As the call it forwards to.
    public func signInWithDeviceCode(
        to server: AuthorizationServer,
        as client: Client,
        scopes: [String],
        makingDefault: Bool = false,
        clock: WallClock = .system,
        configuration: AuthSession.Configuration? = nil,
        progress: @escaping @Sendable (DeviceSignInProgress) async -> Void
    ) async throws -> AuthSession {
        try await signInWithDeviceCode(
            to: server, as: client, scopes: scopes, makingDefault: makingDefault, transport: URLSessionTransport.shared,
            clock: clock, configuration: .resolved(configuration, for: server, platform: .keeping(sessionsIn: store)),
            progress: progress)
    }

    /// The session of `account`, sending requests with the process's one shared
    /// ``URLSessionTransport``: see ``session(for:transport:clock:configuration:)``.
    ///
    /// - Parameters:
    ///   - account: The account.
    ///   - clock: Decides freshness.
    ///   - configuration: Where tokens may go, and more; `nil` for ``AuthSession/Configuration/recommended(for:)``.
    /// - Returns: The session.
    /// - Throws: As the call it forwards to.
    public func session(
        for account: SavedAccount,
        clock: WallClock = .system,
        configuration: AuthSession.Configuration? = nil
    ) async throws -> AuthSession {
        try await session(
            for: account, transport: URLSessionTransport.shared, clock: clock, configuration: configuration,
            platform: .keeping(sessionsIn: store))
    }

    /// Revokes `account`'s grant and removes its session, sending the revocation with the
    /// process's one shared ``URLSessionTransport``: see ``disconnect(_:transport:clock:configuration:)``.
    ///
    /// - Parameters:
    ///   - account: The account.
    ///   - clock: Decides freshness.
    ///   - configuration: How errors are reported, and more; `nil` for ``AuthSession/Configuration/recommended(for:)``.
    /// - Returns: What became of the tokens at the server.
    /// - Throws: As the call it forwards to.
    public func disconnect(
        _ account: SavedAccount,
        clock: WallClock = .system,
        configuration: AuthSession.Configuration? = nil
    ) async throws -> RevocationOutcome {
        try await disconnect(
            account, transport: URLSessionTransport.shared, clock: clock, configuration: configuration,
            platform: .keeping(sessionsIn: store))
    }
}
