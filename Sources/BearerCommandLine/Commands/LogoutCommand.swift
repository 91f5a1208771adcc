import Bearer
@_spi(CommandLine) import BearerCore
import Foundation

/// `bearer logout`: revokes the grant and removes the profile's session. The session is removed
/// even when revocation fails; the exit code then says so (69 when the server was unreachable).
enum LogoutCommand: Command {
    static let spec = CommandSpec(name: "logout")

    static let summary = "revoke the grant and remove the session"

    static let help = """
        usage: bearer logout [--profile NAME]

        Revokes the grant at the server (RFC 7009) and removes the profile's session. When
        revocation fails, the local session is still removed, the grant may still be valid, and
        the message says where to revoke it; the exit code is then 69 if the server could not be
        reached, 1 if it refused or offers no revocation. A corrupt session file is removed
        unrevoked, with exit 1; one that may not be read (another user's, or readable by others),
        or that a newer release of bearer wrote, is refused and kept, with exit 65.
        """

    static func run(_ arguments: ParsedArguments, _ environment: CommandEnvironment) async throws -> ExitCode {
        let profile = try Profile(arguments, environment)
        let console = environment.console
        // Only a corrupt session is removed unrevoked; one that may not be read (an unsafe file or
        // folder) or that a newer release wrote is refused, and nothing is removed.
        switch try await LogoutRules.take(profile) {
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
        let session = try await profile.session(in: environment)
        let outcome = try await session.disconnect()
        let server = await session.state.server
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
