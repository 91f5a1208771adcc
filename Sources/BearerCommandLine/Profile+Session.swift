import Bearer
import BearerCommandLineCore
@_spi(CommandLine) import BearerCore

extension Profile {
    /// The profile that `arguments` name; says why each rule file on the way was skipped.
    ///
    /// - Throws: ``UsageError`` for a name that cannot be a file name, or a malformed rule file.
    init(_ arguments: ParsedArguments, _ environment: CommandEnvironment) throws {
        try self.init(arguments, environment.local)
        for line in skippedRules { environment.console.say(line) }
    }

    /// A session over the stored state that sends tokens only to the profile's ``AllowedHosts``:
    /// `*.googleapis.com` for Google, the issuer's host for other servers, and the hosts added with
    /// `--allow-host`; over https, or loopback http if the profile was set up so.
    ///
    /// Its refreshes tell the environment's ``CommandEnvironment/refreshCriticalSection``.
    ///
    /// - Parameters:
    ///   - environment: The transport for its requests and the critical section of its refreshes.
    ///   - chosen: The key of the account, when the command has chosen it already; `nil` to
    ///     choose it here (``accountName``, else the default).
    /// - Throws: ``NoSession``; `unknownAccount` when another user signed in under the key meanwhile,
    ///   or the account was removed.
    func session(in environment: CommandEnvironment, key chosen: String? = nil) async throws -> AuthSession {
        // The account is chosen once: its settings, and the session restored, are of that one key.
        let (key, state): (String, AuthState)
        if let chosen {
            guard let stored = try store.loadWithoutSuspending(key: chosen) else { throw NoSession(profile: name) }
            (key, state) = (chosen, stored)
        } else {
            (key, state) = try storedAccount()
        }
        var configuration = AuthSession.Configuration.recommended(for: state.server)
        configuration.allowedHosts = AllowedHosts.list(for: state)
        configuration.refreshCriticalSection = environment.refreshCriticalSection
        // A DPoP session signs with its own key, found from its record; no sign-in starts here.
        configuration.dpop = DPoPSettings(use: .never, keys: PlatformDPoPKeys())
        configuration.idTokenSignatures.verifier = PlatformSignatureVerifier()
        // A private_key_jwt client signs its refreshes with the key file it signed in with.
        configuration.clientKeys = ClientKeyFile(recordedIn: state)
        configuration.clientAssertionAudience = ClientKeyFile.audience(recordedIn: state)
        // The shared check: another process may have signed another user in under the key since
        // it was read, and that one's session is refused.
        return try await AccountList(store: store, key: name).session(
            for: SavedAccount(key: key, state: state), transport: environment.transport, clock: environment.clock,
            configuration: configuration)
    }
}
