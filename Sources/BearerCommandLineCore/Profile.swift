@_spi(CommandLine) package import BearerCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A named session in the config folder (`default` unless `--profile` says otherwise).
package struct Profile {
    /// The profile's name, which is its session's key.
    package let name: String
    /// Where the profile lives and what the command may use.
    package let environment: LocalEnvironment

    /// The profile that `arguments` name.
    ///
    /// - Throws: ``UsageError`` for a name that cannot be a file name.
    package init(_ arguments: ParsedArguments, _ environment: LocalEnvironment) throws {
        name = arguments.value("profile") ?? "default"
        self.environment = environment
        do {
            try FileSessionStore.checkKey(name)
        } catch {
            throw UsageError("\"\(name)\" is not a valid profile name; use letters, digits and . _ - @ +.")
        }
    }

    /// The store holding the profile's session.
    package var store: FileSessionStore { environment.store }

    /// `--profile NAME ` for a command line to suggest, or nothing for the default profile.
    package var flag: String { name == "default" ? "" : "--profile \(name) " }

    /// The session file's path, for messages.
    package var file: String {
        (try? store.fileURL(for: name).path) ?? name
    }

    /// The stored session, or an error telling the user to sign in.
    package func load() async throws -> AuthState {
        try storedState()
    }

    /// The stored session, or an error telling the user to sign in, read without suspending.
    package func storedState() throws -> AuthState {
        guard let state = try store.loadWithoutSuspending(key: name) else {
            throw NoSession(profile: name)
        }
        return state
    }
}

/// The profile has no session (exit 77).
package struct NoSession: Error, CustomStringConvertible {
    /// The profile's name.
    package let profile: String

    /// Creates the error.
    package init(profile: String) {
        self.profile = profile
    }

    /// What to do: sign in.
    package var description: String {
        let flag = profile == "default" ? "" : " --profile \(profile)"
        return "No session is saved for profile \"\(profile)\". Sign in with `bearer login\(flag) …` first."
    }
}
