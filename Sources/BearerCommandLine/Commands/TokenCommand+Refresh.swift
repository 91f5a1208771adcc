import Bearer
import Foundation

/// `bearer token` in the whole tool: what the `bearer` executable leaves to it (a token to
/// refresh first, a session that needs a sign-in, every failure) and `--min-lifetime`.
extension TokenCommand: Command {
    static func run(_ arguments: ParsedArguments, _ environment: CommandEnvironment) async throws -> ExitCode {
        let minimumLifetime = try minimumLifetime(arguments)
        let session = try await Profile(arguments, environment).session(in: environment)
        let before = await session.state
        // A server known to grant shorter tokens is not asked again, not even for a stale one.
        if let minimumLifetime, let lifetime = before.accessTokenLifetime, lifetime < minimumLifetime {
            throw ShortLivedToken(asked: minimumLifetime, lifetime: lifetime)
        }
        var token = try await session.validAccessToken()
        if let minimumLifetime {
            var state = await session.state
            // A new token here came from a refresh (this call's, or one another process shared).
            var refreshes = state.accessToken == before.accessToken ? 0 : 1
            while !lasts(state, for: minimumLifetime, at: environment.clock.now()),
                mayRefresh(state, toLast: minimumLifetime, after: refreshes)
            {
                state = try await session.refresh()
                refreshes += 1
            }
            guard let fresh = state.accessToken, lasts(state, for: minimumLifetime, at: environment.clock.now()) else {
                throw ShortLivedToken(asked: minimumLifetime, lifetime: state.accessTokenLifetime)
            }
            token = fresh
        }
        environment.console.out(token.value)
        if await session.state.accessTokenType == .dpop { environment.console.say(dpopNotice) }
        return .success
    }
}

extension TokenCommand {
    /// Whether a refresh may give a token that lasts `minimumLifetime`, after `refreshes` of them
    /// in this call. Every refresh spends a refresh token (and rotates it on servers that do), so
    /// none is sent that cannot help:
    ///
    /// - when the server said how long its tokens live and that is shorter, none: a fresh token
    ///   would not last longer either;
    /// - when it said a long enough lifetime, at most two: a refresh may be shared with one another
    ///   process had in flight under the store's lock, whose token is older, and a second one then
    ///   gets a token of this call's own;
    /// - when the lifetime is unknown, at most one.
    static func mayRefresh(_ state: AuthState, toLast minimumLifetime: TimeInterval, after refreshes: Int) -> Bool {
        guard let lifetime = state.accessTokenLifetime else { return refreshes < 1 }
        return lifetime >= minimumLifetime && refreshes < 2
    }
}

/// The server's access tokens do not live as long as `--min-lifetime` asks, even fresh.
struct ShortLivedToken: Error, Sendable, Equatable {
    /// The seconds asked for.
    let asked: TimeInterval
    /// How long the server's newest token lives, if it said.
    let lifetime: TimeInterval?
}
