@_spi(Bridge) import BearerCore
import Foundation

extension AuthSession {
    /// The session derived from the one saved under `derivation`'s parent key, sending requests
    /// with the process's one shared ``URLSessionTransport`` and using the platform's cryptography:
    /// see ``derive(_:at:as:resource:store:key:transport:clock:configuration:)``.
    ///
    /// ```swift
    /// let mcp = try await AuthSession.derive(
    ///     .identityAssertion(from: "work", scopes: ["files:read"]), at: mcpServer, as: mcpClient,
    ///     resource: resource, store: store)
    /// ```
    ///
    /// - Parameters:
    ///   - derivation: The recipe: which parent, and how.
    ///   - server: The server that issues the derived session's tokens.
    ///   - client: The client registered there.
    ///   - resource: The protected resource the tokens are for, when there is one.
    ///   - store: The store that holds the parent, and where the derived session is saved.
    ///   - key: The key it is saved under; `nil` for the recipe's own.
    ///   - clock: Decides freshness.
    ///   - configuration: The derived session's configuration, used for the parent too; `nil` for
    ///     ``Configuration/recommended(for:)``.
    /// - Returns: The derived session.
    /// - Throws: As ``derive(_:at:as:resource:store:key:transport:clock:configuration:)``.
    public static func derive(
        _ derivation: SessionDerivation,
        at server: AuthorizationServer,
        as client: Client,
        resource: ProtectedResource? = nil,
        store: any SessionStore,
        key: String? = nil,
        clock: WallClock = .system,
        configuration: Configuration? = nil
    ) async throws -> AuthSession {
        try await derive(
            derivation, at: server, as: client, resource: resource, store: store, key: key,
            transport: URLSessionTransport.shared,
            clock: clock, configuration: configuration, platform: .keeping(sessionsIn: store))
    }
}
