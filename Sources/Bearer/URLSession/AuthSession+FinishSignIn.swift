@_spi(Bridge) import BearerCore
public import Foundation

extension AuthSession {
    /// Finishes a web sign-in begun on any instance, sending the token request with the process's
    /// one shared ``URLSessionTransport``: see
    /// ``finishSignIn(redirect:pendingSignIns:store:key:lifetime:transport:clock:configuration:)``.
    ///
    /// - Parameters:
    ///   - redirect: The callback URL the browser arrived with.
    ///   - pendingSignIns: Where the pending sign-in was kept.
    ///   - store: Where the session is saved.
    ///   - key: The key it is saved under; a session saved there before is replaced.
    ///   - lifetime: How long after it began a sign-in may be finished.
    ///   - clock: Decides whether the pending sign-in expired, and freshness.
    ///   - configuration: Where tokens may go, and more; `nil` for ``Configuration/recommended(for:)``.
    /// - Returns: The saved session.
    /// - Throws: As the call it forwards to.
    public static func finishSignIn(
        redirect: URL,
        pendingSignIns: some PendingSignInStore,
        store: any SessionStore,
        key: String,
        lifetime: Duration = PendingSignIn.defaultLifetime,
        clock: WallClock = .system,
        configuration: Configuration? = nil
    ) async throws -> AuthSession {
        try await finishSignIn(
            redirect: redirect, pendingSignIns: pendingSignIns, store: store, key: key, lifetime: lifetime,
            transport: URLSessionTransport.shared, clock: clock, configuration: configuration,
            platform: .keeping(sessionsIn: store))
    }
}
