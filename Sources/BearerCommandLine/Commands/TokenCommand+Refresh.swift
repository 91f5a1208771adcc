import Bearer
import Foundation

/// `bearer token` in the whole tool: what the `bearer` executable leaves to it (a token to
/// refresh first, a session that needs a sign-in, every failure) and `--min-lifetime`.
extension TokenCommand: Command {
    static func run(_ arguments: ParsedArguments, _ environment: CommandEnvironment) async throws -> ExitCode {
        let minimumLifetime = try minimumLifetime(arguments)
        let session = try await Profile(arguments, environment).session(in: environment)
        var token = try await session.validAccessToken()
        if let minimumLifetime {
            var state = await session.state
            // A refresh is shared with one another process has in flight, under the store's lock,
            // whose token may be older: a second refresh then gets one of our own.
            for _ in 0..<2 where !lasts(state, for: minimumLifetime, at: environment.clock.now()) {
                state = try await session.refresh()
                // The server said how long its tokens live: another refresh would not be longer.
                if let lifetime = state.accessTokenLifetime, lifetime < minimumLifetime { break }
            }
            guard let fresh = state.accessToken, lasts(state, for: minimumLifetime, at: environment.clock.now()) else {
                throw ShortLivedToken(asked: minimumLifetime, lifetime: state.accessTokenLifetime)
            }
            token = fresh
        }
        environment.console.out(token.value)
        return .success
    }
}

/// The server's access tokens do not live as long as `--min-lifetime` asks, even fresh.
struct ShortLivedToken: Error, Sendable, Equatable {
    /// The seconds asked for.
    let asked: TimeInterval
    /// How long the server's newest token lives, if it said.
    let lifetime: TimeInterval?
}
