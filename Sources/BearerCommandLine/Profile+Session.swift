import Bearer
import BearerCommandLineCore

extension Profile {
    /// The profile that `arguments` name.
    ///
    /// - Throws: ``UsageError`` for a name that cannot be a file name.
    init(_ arguments: ParsedArguments, _ environment: CommandEnvironment) throws {
        try self.init(arguments, environment.local)
    }

    /// A session over the stored state: Google sessions send tokens only to `*.googleapis.com`;
    /// others to any https host, and to loopback http if the profile was set up so.
    ///
    /// - Parameter transport: Sends the session's requests.
    func session(using transport: any HTTPTransport) async throws -> AuthSession {
        let state = try await load()
        let configuration: AuthSession.Configuration = state.server.isGoogle ? .google : AuthSession.Configuration()
        let session = try await AuthSession.restore(
            key: name,
            from: store,
            transport: transport,
            clock: environment.clock,
            configuration: configuration
        )
        guard let session else { throw NoSession(profile: name) }
        return session
    }
}
