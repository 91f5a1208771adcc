import Bearer
@_spi(Internals) import BearerCore
import BearerMigration

/// Turns any error into an exit code and one or two plain sentences for stderr, never a token.
/// It is the one place where the tool words an error: commands throw the library's errors as they
/// are, with ``InContext`` when the message needs to name the profile, its hosts or the host asked for.
enum ErrorReport {
    /// An error and what its message should name.
    struct InContext: Error {
        /// The error raised.
        let error: any Error
        /// The profile the command used.
        let profile: Profile
        /// The hosts the profile sends tokens to.
        let allowedHosts: [String]
        /// The host a request went to.
        let host: String?

        init(_ error: any Error, profile: Profile, allowedHosts: [String], host: String?) {
            self.error = error
            self.profile = profile
            self.allowedHosts = allowedHosts
            self.host = host
        }
    }

    static func exitCode(for error: any Error) -> ExitCode {
        switch error {
        case let error as InContext:
            return exitCode(for: error.error)
        case is UsageError:
            return .usage
        case is NoSession:
            return .signInRequired
        case is ShortLivedToken, is ToolFailure:
            return .failure
        case let error as MigrationError:
            // The file and the command line disagree: the command line must change.
            return error.kind == .conflictingSettings ? .usage : .dataError
        case let error as OAuthError:
            if error.signInRequired { return .signInRequired }
            if error.isTransient { return .unavailable }
            return .failure
        case let error as BearerError:
            if error.signInRequired { return .signInRequired }
            if error.isTransient { return .unavailable }
            if [.unreadableSession, .insecureStorage].contains(error.kind) { return .dataError }
            // An --account, $BEARER_ACCOUNT or rule that names no account (or several).
            if error.kind == .unknownAccount { return .usage }
            return .failure
        default:
            return .failure
        }
    }

    /// The sentences for `error`, without control characters: an error description or URL comes
    /// from a server or a network peer, and must not drive the terminal.
    static func message(for error: any Error) -> String {
        sentences(for: error).printable
    }

    private static func sentences(for error: any Error) -> String {
        switch error {
        case let error as InContext:
            return sentences(for: error.error, in: error)
        case let error as UsageError:
            return error.description
        case let error as NoSession:
            return error.description
        case let error as ToolFailure:
            return error.message
        case let error as ShortLivedToken:
            let lifetime = error.lifetime.map { "live \(Int($0)) s" } ?? "do not say how long they live"
            return "The server's access tokens \(lifetime), even fresh, so none stays valid for the "
                + "\(Int(error.asked)) s that --min-lifetime asks for; nothing was printed. Ask for less"
                + (error.lifetime.map { " (at most \(Int($0)) s)" } ?? "") + "."
        case let error as MigrationError:
            return error.reason
        case let error as OAuthError:
            var text = "The server refused: \(error.code.rawValue)"
            if let description = error.errorDescription { text += " (\(description))" }
            text += "."
            if error.signInRequired {
                text += " Run `bearer login` to sign in again."
            } else if error.isTransient {
                text += " Try again later."
            }
            return text
        case let error as BearerError:
            if error.signInRequired { return error.reason + " Run `bearer login` to sign in again." }
            return error.reason
        default:
            return "Unexpected failure: \(String(describing: type(of: error)))."
        }
    }

    /// The sentences for `error`, naming what `context` knows.
    private static func sentences(for error: any Error, in context: InContext) -> String {
        if let error = error as? BearerError, error.kind == .hostNotAllowed, let host = context.host {
            let profile = context.profile
            return "Profile \(profile.name) sends its tokens only to \(context.allowedHosts.joined(separator: ", ")), "
                + "not to \(host); nothing was sent. To allow \(host), sign in again with "
                + "`bearer login \(profile.flag)--allow-host \(host) …` (the flag may be repeated)."
        }
        return sentences(for: error)
    }
}

/// A command that cannot do what was asked, for a reason that is neither a usage error nor the
/// library's (exit 1).
struct ToolFailure: Error, Sendable, Equatable {
    /// What is wrong and what to do.
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
