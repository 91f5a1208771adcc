import Bearer
import BearerMigration

/// Turns any error into an exit code and one or two plain sentences for stderr, never a token.
enum ErrorReport {
    static func exitCode(for error: any Error) -> ExitCode {
        switch error {
        case is UsageError:
            return .usage
        case is NoSession:
            return .signInRequired
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
            if [.unreadableSession, .unreadableSession, .insecureStorage].contains(error.kind) { return .dataError }
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
        case let error as UsageError:
            return error.description
        case let error as NoSession:
            return error.description
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
}
