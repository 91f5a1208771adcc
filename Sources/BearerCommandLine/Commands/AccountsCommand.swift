import Bearer
@_spi(CommandLine) @_spi(Internals) import BearerCore
import Foundation

/// `bearer accounts`: lists the profile's accounts; `bearer accounts default ACCOUNT` chooses
/// its default.
enum AccountsCommand: Command {
    static let spec = CommandSpec(
        name: "accounts", flags: ["json"], positionals: 0...2, positionalName: "[default ACCOUNT]")

    static let summary = "list the profile's accounts, or choose its default"

    static let help = """
        usage: bearer accounts [--profile NAME] [--json]
               bearer accounts default ACCOUNT [--profile NAME]

        Lists the accounts signed in under the profile: each user (e-mail, name), its server,
        whether it needs a new sign-in, and which one is the default (marked *). bearer login adds
        an account, or updates the one of the same user; bearer logout --account ACCOUNT removes
        one and revokes its grant, leaving the others.

        Every command uses the default account unless told otherwise, in this order:
          --account ACCOUNT      for this command only
          $BEARER_ACCOUNT        for this shell
          .bearer-account        the nearest such file from the working directory up with a line
                                 "PROFILE = ACCOUNT"; used only when it is yours and nobody else
                                 may write it
        An ACCOUNT is an e-mail (in any case), a subject, a name, or the key this list shows.
        Two commands using two accounts at once never see each other's tokens.

        bearer accounts default ACCOUNT makes ACCOUNT the profile's default.
        --json prints the list as a JSON array, with no token in it.
        """

    /// One account, as `--json` prints it.
    struct Entry: Encodable {
        let key: String
        let isDefault: Bool
        let email: String?
        let name: String?
        let sub: String?
        let issuer: String?
        let clientID: String?
        let scopes: [String]
        let signInRequired: Bool
        let problem: String?

        enum CodingKeys: String, CodingKey {
            case key, email, name, sub, issuer, scopes, problem
            case isDefault = "default"
            case clientID = "client_id"
            case signInRequired = "sign_in_required"
        }
    }

    static func run(_ arguments: ParsedArguments, _ environment: CommandEnvironment) async throws -> ExitCode {
        let profile = try Profile(arguments, environment)
        switch arguments.positionals.first {
        case nil:
            return try list(profile, json: arguments.has("json"), console: environment.console)
        case "default":
            guard arguments.positionals.count == 2, let name = arguments.positionals.last else {
                throw UsageError("Say which account: bearer accounts default ACCOUNT.", command: spec.name)
            }
            let accounts = AccountList(store: profile.store, key: profile.name)
            let account = try await accounts.account(named: name)
            try await accounts.makeDefault(account, clock: environment.clock)
            environment.console.say(
                "\(account.displayName.printable) is now the default account of profile \(profile.name).")
            return .success
        case let other?:
            throw UsageError(
                "\"\(other)\" is not an accounts subcommand; the one there is: default.", command: spec.name)
        }
    }

    private static func list(_ profile: Profile, json: Bool, console: Console) throws -> ExitCode {
        let accounts = try profile.accounts()
        let entries = accounts.map { account in
            Entry(
                key: account.key, isDefault: account.isDefault, email: account.user?.email,
                name: account.user?.name, sub: account.user?.subject.isEmpty == false ? account.user?.subject : nil,
                issuer: account.issuer?.absoluteString, clientID: account.clientID, scopes: account.grantedScopes,
                signInRequired: account.signInRequired,
                problem: account.problem.map { ErrorReport.message(for: $0) })
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            console.out(String(decoding: try encoder.encode(entries), as: UTF8.self).escapingControlsInJSON)
            return .success
        }
        guard !entries.isEmpty else {
            console.say("Profile \(profile.name) has no account. Sign in with `bearer login \(profile.flag)…`.")
            return .success
        }
        for entry in entries {
            let who = entry.email ?? entry.name ?? entry.sub ?? "an unnamed user"
            let state =
                entry.problem != nil ? "unreadable" : entry.signInRequired ? "needs bearer login" : "signed in"
            let line = "\(entry.isDefault ? "*" : " ") \(who)  \(entry.issuer ?? "?")  \(state)  [\(entry.key)]"
            console.out(line.printable)
        }
        return .success
    }
}
