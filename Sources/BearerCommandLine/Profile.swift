import Bearer
import Foundation

/// A named session in the config folder (`default` unless `--profile` says otherwise).
struct Profile {
    let name: String
    let environment: CommandEnvironment

    init(_ arguments: ParsedArguments, _ environment: CommandEnvironment) throws {
        name = arguments.value("profile") ?? "default"
        self.environment = environment
        do {
            _ = try environment.store.fileURL(for: name)
        } catch {
            throw UsageError("\"\(name)\" is not a valid profile name; use letters, digits and . _ - @ +.")
        }
    }

    var store: FileSessionStore { environment.store }

    /// `--profile NAME ` for a command line to suggest, or nothing for the default profile.
    var flag: String { name == "default" ? "" : "--profile \(name) " }

    var file: String {
        (try? store.fileURL(for: name).path) ?? name
    }

    /// The stored session, or an error telling the user to sign in.
    func load() async throws -> AuthState {
        guard let state = try await store.load(key: name) else {
            throw NoSession(profile: name)
        }
        return state
    }

    /// A session over the stored state that sends tokens only to the profile's ``AllowedHosts``:
    /// `*.googleapis.com` for Google, the issuer's host for other servers, and the hosts added with
    /// `--allow-host`; over https, or loopback http if the profile was set up so.
    func session() async throws -> AuthSession {
        let state = try await load()
        var configuration: AuthSession.Configuration = state.server.isGoogle ? .google : AuthSession.Configuration()
        configuration.allowedHosts = AllowedHosts.list(for: state)
        let session = try await AuthSession.restore(
            key: name,
            from: store,
            transport: environment.transport,
            clock: environment.clock,
            configuration: configuration
        )
        guard let session else { throw NoSession(profile: name) }
        return session
    }
}

/// The profile has no session (exit 77).
struct NoSession: Error, CustomStringConvertible {
    let profile: String

    var description: String {
        let flag = profile == "default" ? "" : " --profile \(profile)"
        return "No session is saved for profile \"\(profile)\". Sign in with `bearer login\(flag) …` first."
    }
}
