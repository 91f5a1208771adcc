import BearerCore

/// `bearer token` when the stored access token is fresh: prints it without the network.
///
/// The decision is the session's own: its state machine over the stored copy, with the
/// refresh leeway every profile uses. When it says anything but "deliver", the whole tool runs
/// and refreshes under the store's lock exactly as before.
package enum FreshTokenCommand {
    /// What `token` accepts.
    package static let spec = CommandSpec(name: "token")

    /// Prints the stored access token if it is fresh.
    ///
    /// - Returns: ``ExitCode/success`` when the token was printed; `nil` when there is none, it
    ///   must be refreshed first, or the session needs a new sign-in.
    /// - Throws: ``UsageError``, or the store's error when the session cannot be read.
    package static func run(_ arguments: ParsedArguments, _ environment: LocalEnvironment) throws -> ExitCode? {
        let profile = try Profile(arguments, environment)
        guard let state = try profile.store.loadWithoutSuspending(key: profile.name) else { return nil }
        var machine = AuthSession.StateMachine(stored: state)
        let action = machine.tokenRequested(at: environment.clock.now(), leeway: AuthState.defaultRefreshLeeway)
        guard case .deliver(let fresh) = action, fresh.canAuthorize, let token = fresh.accessToken else { return nil }
        environment.console.out(token.value)
        return .success
    }
}
