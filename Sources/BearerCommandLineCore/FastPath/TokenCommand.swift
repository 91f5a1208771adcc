@_spi(CommandLine) package import BearerCore

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// `bearer token [--min-lifetime SECONDS]`: prints an access token and a newline, nothing else.
///
/// The `bearer` executable answers it by itself when the stored token is fresh
/// (``printStoredToken(_:_:)``, here, without the network); the whole tool refreshes it first
/// otherwise (`run`, in BearerCommandLine), under the store's lock.
package enum TokenCommand {
    /// What `token` accepts.
    package static let spec = CommandSpec(name: "token", valueOptions: ["min-lifetime"])

    /// The line in `bearer --help`.
    package static let summary = "print a fresh access token"

    /// The text of `bearer help token`.
    package static let help = """
        usage: bearer token [--profile NAME] [--account ACCOUNT] [--min-lifetime SECONDS]

        Prints a fresh access token and a newline on stdout, and nothing else, refreshing it first
        when it is about to expire.

        --min-lifetime SECONDS asks for a token that stays valid for at least SECONDS more (for a
        long upload, say): one with less time left is refreshed first. When the server's tokens
        never live that long, nothing is printed and the message says how long they do live
        (exit 1).
        """

    /// The longest `--min-lifetime` accepted: a day.
    package static let maximumMinimumLifetime = 86_400

    /// The `--min-lifetime` given, in seconds; `nil` without one.
    ///
    /// - Throws: ``UsageError`` for anything but a number of seconds from 1 to a day.
    package static func minimumLifetime(_ arguments: ParsedArguments) throws -> TimeInterval? {
        guard let text = arguments.value("min-lifetime") else { return nil }
        guard let seconds = Int(text), seconds > 0, seconds <= maximumMinimumLifetime else {
            throw UsageError(
                "--min-lifetime needs a number of seconds from 1 to \(maximumMinimumLifetime).", command: spec.name)
        }
        return TimeInterval(seconds)
    }

    /// Whether the access token of `state` stays valid for `minimumLifetime` seconds after `now`:
    /// always without a minimum; never when the server did not say when it expires.
    package static func lasts(_ state: AuthState, for minimumLifetime: TimeInterval?, at now: Date) -> Bool {
        guard let minimumLifetime else { return true }
        guard state.accessToken != nil, let expiresAt = state.accessTokenExpiresAt else { return false }
        return expiresAt.timeIntervalSince(now) >= minimumLifetime
    }

    /// Prints the stored access token if it is fresh (and has `--min-lifetime` left), without the
    /// network.
    ///
    /// The decision is the session's own: its state machine over the stored copy, with the
    /// refresh leeway every profile uses; with `--min-lifetime`, the token must also have that long
    /// left. Otherwise the whole tool runs and refreshes under the store's lock.
    ///
    /// - Returns: ``ExitCode/success`` when the token was printed; `nil` when there is none, it
    ///   must be refreshed first, or the session needs a new sign-in.
    /// - Throws: ``UsageError``, or the store's error when the session cannot be read.
    package static func printStoredToken(_ arguments: ParsedArguments, _ environment: LocalEnvironment) throws
        -> ExitCode?
    {
        let profile = try Profile(arguments, environment)
        // A skipped rule file is the whole tool's to report.
        guard profile.skippedRules.isEmpty else { return nil }
        let minimumLifetime = try minimumLifetime(arguments)
        guard
            let state = try profile.store.accountWithoutSuspending(key: profile.name, named: profile.accountName).state
        else { return nil }
        let now = environment.clock.now()
        var machine = AuthSession.StateMachine(stored: state)
        let action = machine.tokenRequested(at: now, leeway: AuthState.defaultRefreshLeeway)
        guard case .deliver(let fresh) = action, fresh.canAuthorize, let token = fresh.accessToken,
            lasts(fresh, for: minimumLifetime, at: now)
        else { return nil }
        environment.console.out(token.value)
        if fresh.accessTokenType == .dpop { environment.console.say(dpopNotice) }
        return .success
    }

    /// What `token` says on standard error for a DPoP session's token.
    package static let dpopNotice =
        "This is a DPoP token (RFC 9449): servers accept it only with a proof signed by the session's key, "
        + "sent as Authorization: DPoP. Use bearer curl, or bearer proof --method M --url U for another HTTP client."
}
