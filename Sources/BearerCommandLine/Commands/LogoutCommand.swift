import Bearer
@_spi(CommandLine) import BearerCore
import Foundation

/// `bearer logout`: revokes the grant and removes the profile's session. The session is removed
/// even when revocation fails; the exit code then says so (69 when the server was unreachable).
enum LogoutCommand: Command {
    static let spec = CommandSpec(
        name: "logout", valueOptions: SignInOptions.valueOptions,
        flags: SignInOptions.flags.union(["at-provider"]))

    static let summary = "revoke the grant and remove the session"

    static let help = """
        usage: bearer logout [--profile NAME] [--account ACCOUNT] [--at-provider \(SignInOptions.usage)]

        Revokes the grant at the server (RFC 7009) and removes the session of the profile's account
        (its default, or the one --account names; the other accounts stay, and bearer accounts lists
        them). When
        revocation fails, the local session is still removed, the grant may still be valid, and
        the message says where to revoke it; the exit code is then 69 if the server could not be
        reached, 1 if it refused or offers no revocation. A corrupt session file is removed
        unrevoked, with exit 1; one that may not be read (another user's, or readable by others),
        or that a newer release of bearer wrote, is refused and kept, with exit 65.

        With --at-provider, the provider's own session ends too (OpenID Connect RP-Initiated
        Logout), so the next login asks who you are: after the local session is removed, the
        provider's end-session page opens in the browser, and bearer waits on 127.0.0.1 for the
        browser to come back (the port of the profile's login, or --port; register
        http://127.0.0.1:PORT/callback as a post-logout redirect URI). Exit 1 when the provider
        offers no end-session endpoint or did not confirm the logout; the local session is gone
        either way.

        \(SignInOptions.help)
        """

    static func run(_ arguments: ParsedArguments, _ environment: CommandEnvironment) async throws -> ExitCode {
        let profile = try Profile(arguments, environment)
        let console = environment.console
        let atProvider = arguments.has("at-provider")
        if !atProvider,
            let option = SignInOptions.valueOptions.union(SignInOptions.flags).sorted().first(where: {
                arguments.value($0) != nil || arguments.has($0)
            })
        {
            throw UsageError("--\(option) is for --at-provider; add --at-provider, or leave it out.", command: "logout")
        }
        // Only a corrupt session is removed unrevoked; one that may not be read (an unsafe file or
        // folder) or that a newer release wrote is refused, and nothing is removed.
        let (stored, key) = try await LogoutRules.take(profile)
        switch stored {
        case .absent:
            console.say("Profile \(profile.name) has no session; nothing to sign out of.")
            return .success
        case .removedUnreadable:
            console.say("Removed the unreadable session of profile \(profile.name); it could not be revoked.")
            return .failure
        case .readable:
            break
        }
        // The place to revoke by hand is that of the session disconnected, read after it caught
        // up with the stored copy.
        let session = try await profile.session(in: environment, key: key)
        guard atProvider else {
            let outcome = try await session.disconnect()
            let code = report(outcome, server: await session.state.server, profile: profile, console: console)
            try await disconnectDerivedProfiles(of: key, profile, environment)
            return code
        }
        let state = await session.state
        let agent = try SignInOptions.agent(
            arguments, port: try SignInOptions.port(arguments, remembered: state, command: "logout"),
            command: "logout", console: console, purpose: "sign out at the provider")
        let signedOut = try await session.disconnect(endingProviderSessionWith: agent)
        try await disconnectDerivedProfiles(of: key, profile, environment)
        let revoked = report(signedOut.revocation, server: state.server, profile: profile, console: console)
        let host = state.server.issuer.host ?? state.server.issuer.absoluteString
        switch signedOut.providerSession {
        case .ended:
            console.say("Signed out at \(host) too: the next login asks who you are.")
            return revoked
        case .notOffered:
            console.say(
                "\(host) offers no end-session endpoint, so you are still signed in there; sign out in its own "
                    + "pages.")
        case .notConfirmed(let error) where error is CancellationError:
            console.say("The provider's sign-out was cancelled; you may still be signed in at \(host).")
        case .notConfirmed(let error):
            console.say(ErrorReport.message(for: error) + " You may still be signed in at \(host).")
        }
        return .failure
    }

    /// Says what became of the grant, and the exit code for it.
    private static func report(
        _ outcome: RevocationOutcome, server: AuthorizationServer, profile: Profile, console: Console
    ) -> ExitCode {
        switch outcome {
        case .revoked:
            console.say(
                "Signed out of profile \(profile.name): the server revoked the grant and the session was removed.")
        case .notRevoked:
            console.say(
                "Signed out of profile \(profile.name). The server offers no revocation, so only the local session was removed."
            )
            return .failure
        case .failed(let error):
            console.say(
                "Signed out of profile \(profile.name) locally: the session was removed, but the server did not "
                    + "revoke the grant.")
            console.say(
                ErrorReport.message(for: error) + " The grant may still be valid; revoke it "
                    + revocationPlace(for: server) + ".")
            return ErrorReport.exitCode(for: error) == .unavailable ? .unavailable : .failure
        }
        return .success
    }

    /// Where a person can revoke a grant by hand.
    static func revocationPlace(for server: AuthorizationServer) -> String {
        if server.isGoogle { return "at https://myaccount.google.com/permissions" }
        return "in your account's settings at \(server.issuer.host ?? server.issuer.absoluteString)"
    }
}
