/// The `bearer` tool's exit codes (see `bearer --help`).
package enum ExitCode: Int32, Sendable {
    /// Success.
    case success = 0
    /// Anything else.
    case failure = 1
    /// `curl` got an HTTP error status (the body still went to stdout).
    case httpError = 22
    /// A usage error.
    case usage = 64
    /// Bad input data: an unreadable legacy file or a corrupt session.
    case dataError = 65
    /// The server is unreachable or failing; try again later.
    case unavailable = 69
    /// The output could not be written (a full disk, an I/O error; a closed pipe is no error).
    case outputFailed = 74
    /// The user must sign in again (`bearer login`).
    case signInRequired = 77
}
