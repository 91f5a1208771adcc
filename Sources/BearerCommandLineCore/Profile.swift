@_spi(CommandLine) package import BearerCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A named session in the config folder (`default` unless `--profile` says otherwise), with
/// its accounts: the users signed in under it, one of them the default.
package struct Profile {
    /// The profile's name, which is its first account's session key and the start of the others'.
    package let name: String
    /// The account asked for: `--account`, else `$BEARER_ACCOUNT`, else the nearest rule file's
    /// (``AccountRules``), an empty value counting as none; `nil` for the profile's default account.
    package let accountName: String?
    /// Why rule files on the way from the working directory were skipped: the whole tool says
    /// so, and the fast path leaves such a command to it.
    package let skippedRules: [String]
    /// Where the profile lives and what the command may use.
    package let environment: LocalEnvironment

    /// The longest profile name, in bytes: its accounts' keys add `+` and 16 hexadecimal digits,
    /// and a key has at most 200.
    package static let longestName = 183

    /// The profile that `arguments` name.
    ///
    /// - Throws: ``UsageError`` for a name that cannot be a file name, or a malformed rule file.
    package init(_ arguments: ParsedArguments, _ environment: LocalEnvironment) throws {
        name = arguments.value("profile") ?? "default"
        self.environment = environment
        do {
            try FileSessionStore.checkKey(name)
        } catch {
            throw UsageError("\"\(name)\" is not a valid profile name; use letters, digits and . _ - @ +.")
        }
        // Another account's key is the profile's name and 17 more bytes, within a key's 200.
        guard name.utf8.count <= Self.longestName else {
            throw UsageError(
                "A profile name may have at most \(Self.longestName) bytes; \"\(name)\" has \(name.utf8.count).")
        }
        guard !AccountList.isAccountKey(name) else {
            throw UsageError(
                "\"\(name)\" is not a valid profile name: NAME+<16 hexadecimal digits> names another profile's account."
            )
        }
        guard !name.contains("+derived-") else {
            throw UsageError(
                "\"\(name)\" is not a valid profile name: NAME+derived-… names a session derived from another profile's."
            )
        }
        let given = [arguments.value("account"), environment.variables["BEARER_ACCOUNT"]].compactMap { $0 }
            .first { !$0.isEmpty }
        if let given {
            (accountName, skippedRules) = (given, [])
        } else if let directory = environment.workingDirectoryPath {
            let finding = try AccountRules.account(for: name, from: directory)
            (accountName, skippedRules) = (finding.account, finding.skipped)
        } else {
            (accountName, skippedRules) = (nil, [])
        }
    }

    /// The store holding the profile's sessions.
    package var store: FileSessionStore { environment.store }

    /// `--profile NAME ` for a command line to suggest, or nothing for the default profile.
    package var flag: String { name == "default" ? "" : "--profile \(name) " }

    /// The session file's path, for messages.
    package var file: String {
        (try? store.fileURL(for: (try? sessionKey()) ?? name).path) ?? name
    }

    /// The profile's accounts, sorted by key.
    ///
    /// - Throws: The store's error when the folder cannot be listed.
    package func accounts() throws -> [SavedAccount] {
        try store.accountsWithoutSuspending(key: name)
    }

    /// The key of the account the command uses: the one ``accountName`` names, else the
    /// profile's default; the profile's name when it has no account yet.
    ///
    /// - Throws: ``BearerError/Kind/unknownAccount`` when ``accountName`` names no account or
    ///   several; the store's error when the folder cannot be listed (a list of one account's
    ///   file is not read).
    package func sessionKey() throws -> String {
        try store.accountKeyWithoutSuspending(key: name, named: accountName)
    }

    /// The stored session, or an error telling the user to sign in.
    package func load() async throws -> AuthState {
        try storedState()
    }

    /// The stored session of the account the command uses, or an error telling the user to sign
    /// in, read without suspending.
    package func storedState() throws -> AuthState {
        try storedAccount().state
    }

    /// The key and the stored session of the account the command uses, read without suspending.
    ///
    /// - Throws: ``NoSession`` when it has none; as ``sessionKey()``.
    package func storedAccount() throws -> (key: String, state: AuthState) {
        let (key, state) = try store.accountWithoutSuspending(key: name, named: accountName)
        guard let state else { throw NoSession(profile: name) }
        return (key, state)
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
