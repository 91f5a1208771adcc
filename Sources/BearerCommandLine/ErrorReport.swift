import Bearer
import BearerMigration

/// Turns any error into an exit code and one or two plain sentences for stderr, never a token.
enum ErrorReport {
    static func exitCode(for error: any Error) -> ExitCode {
        switch error {
        case is UsageError:
            return .usage
        case is NoSession:
            return .reauthenticationNeeded
        case is MigrationError:
            return .dataError
        case let error as OAuthError:
            if error.requiresReauthentication { return .reauthenticationNeeded }
            if error.isTransient { return .unavailable }
            return .failure
        case let error as BearerError:
            if error.requiresReauthentication { return .reauthenticationNeeded }
            if error.isTransient { return .unavailable }
            if [.corruptState, .unsupportedStateVersion, .insecureStorage].contains(error.kind) { return .dataError }
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
            if error.requiresReauthentication {
                text += " Run `bearer login` to sign in again."
            } else if error.isTransient {
                text += " Try again later."
            }
            return text
        case let error as BearerError:
            if error.requiresReauthentication { return error.reason + " Run `bearer login` to sign in again." }
            return error.reason
        default:
            return "Unexpected failure: \(String(describing: type(of: error)))."
        }
    }
}
