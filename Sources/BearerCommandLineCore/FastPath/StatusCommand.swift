@_spi(CommandLine) @_spi(Internals) import BearerCore

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `bearer status [--json]`: who is signed in, with which scopes, until when; never a token.
///
/// It never needs the network, so the `bearer` executable answers it by itself.
package enum StatusCommand {
    /// What `status` accepts.
    package static let spec = CommandSpec(name: "status", flags: ["json"])

    /// The line in `bearer --help`.
    package static let summary = "show the user, scopes and expiry (never a token); --json for scripts"

    /// The text of `bearer help status`.
    package static let help = """
        usage: bearer status [--profile NAME] [--account ACCOUNT] [--json]

        Shows the profile, the account's key, the user (email, sub), the granted scopes, the token expiry, whether a
        new sign-in is needed, the token type and, for a DPoP session, the thumbprint of the key its
        tokens are bound to (never the key), the issuer, the client and the session file. Never
        prints a token. --json prints one object with the keys profile, account, email, sub, scopes,
        expires_at (RFC 3339 or null), sign_in_required, token_type (Bearer or DPoP), dpop_jkt (the
        key's RFC 7638 thumbprint, or null), issuer, resource (the protected resource the tokens are
        for, or null), client_id, session_file;
        needs_reauthentication, the old name of sign_in_required, is kept beside it until the next
        minor release.
        """

    struct Report: Encodable {
        let profile: String
        let account: String
        let email: String?
        let sub: String?
        let scopes: [String]
        let expiresAt: String?
        let signInRequired: Bool
        let tokenType: String
        let dpopThumbprint: String?
        let issuer: String
        let resource: String?
        let clientID: String
        let sessionFile: String

        enum CodingKeys: String, CodingKey {
            case profile, account, email, sub, scopes
            case expiresAt = "expires_at"
            case signInRequired = "sign_in_required"
            /// The name `sign_in_required` had in 0.1.0; written beside it until the next minor
            /// release, so that scripts written for 0.1.0 keep reading it.
            case needsReauthentication = "needs_reauthentication"
            case tokenType = "token_type"
            case dpopThumbprint = "dpop_jkt"
            case issuer, resource
            case clientID = "client_id"
            case sessionFile = "session_file"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(profile, forKey: .profile)
            try container.encode(account, forKey: .account)
            try container.encode(email, forKey: .email)
            try container.encode(sub, forKey: .sub)
            try container.encode(scopes, forKey: .scopes)
            try container.encode(expiresAt, forKey: .expiresAt)
            try container.encode(signInRequired, forKey: .signInRequired)
            try container.encode(signInRequired, forKey: .needsReauthentication)
            try container.encode(tokenType, forKey: .tokenType)
            try container.encode(dpopThumbprint, forKey: .dpopThumbprint)
            try container.encode(issuer, forKey: .issuer)
            try container.encode(resource, forKey: .resource)
            try container.encode(clientID, forKey: .clientID)
            try container.encode(sessionFile, forKey: .sessionFile)
        }
    }

    /// Prints the profile's status.
    ///
    /// - Throws: ``UsageError`` or ``NoSession``, or the store's error when the session cannot be read.
    package static func run(_ arguments: ParsedArguments, _ environment: LocalEnvironment) throws -> ExitCode {
        let profile = try Profile(arguments, environment)
        for line in profile.skippedRules { environment.console.say(line) }
        return try run(arguments, profile: profile, environment)
    }

    /// Prints the status of `profile`, which `arguments` name.
    ///
    /// - Throws: ``NoSession``, or the store's error when the session cannot be read.
    package static func run(_ arguments: ParsedArguments, profile: Profile, _ environment: LocalEnvironment) throws
        -> ExitCode
    {
        let (account, state) = try profile.storedAccount()
        let expiry = state.accessTokenExpiresAt.flatMap { $0 == .distantPast ? nil : $0 }
        let subject = state.user?.subject.isEmpty == false ? state.user?.subject : nil
        let report = Report(
            profile: profile.name,
            account: account,
            email: state.user?.email,
            sub: subject,
            scopes: state.grantedScopes,
            expiresAt: expiry.map(internetDateTime),
            signInRequired: !state.canAuthorize,
            tokenType: state.accessTokenType.rawValue,
            dpopThumbprint: state.dpopKey?.thumbprint,
            issuer: state.server.issuer.absoluteString,
            resource: state.resource?.description,
            clientID: state.client.id,
            sessionFile: (try? profile.store.fileURL(for: account).path) ?? account
        )
        let console = environment.console
        if arguments.has("json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            console.out(String(decoding: try encoder.encode(report), as: UTF8.self).escapingControlsInJSON)
            return .success
        }
        let now = environment.clock.now()
        let expiryText: String
        if let expiry {
            let minutes = Int(exactly: min(max((expiry.timeIntervalSince(now) / 60).rounded(.down), -1e9), 1e9)) ?? 0
            expiryText =
                report.expiresAt.map {
                    $0 + (expiry > now ? " (in \(minutes) min)" : " (expired; refreshed on next use)")
                } ?? ""
        } else {
            expiryText =
                state.accessToken == nil
                ? "no access token yet (one is fetched on next use)" : "unknown (refreshed on next use)"
        }
        console.out("Profile:       \(report.profile.printable)")
        console.out("Account:       \(report.account.printable)")
        // Server-supplied text: never let it drive the terminal.
        let user = (report.email ?? "unknown") + (report.sub.map { " (sub \($0))" } ?? "")
        console.out("User:          \(user.printable)")
        console.out("Scopes:        \(report.scopes.joined(separator: " ").printable)")
        console.out("Token expiry:  \(expiryText)")
        console.out("Needs sign-in: \(report.signInRequired ? "yes — run bearer login" : "no")")
        let binding =
            switch (report.tokenType, report.dpopThumbprint) {
            case ("DPoP", let key?): "DPoP, bound to key \(key)"
            case (let type, let key?): "\(type) (its refresh token is bound to DPoP key \(key))"
            case (let type, nil): type
            }
        console.out("Token type:    \(binding)")
        console.out("Issuer:        \(report.issuer.printable)")
        if let resource = report.resource { console.out("Resource:      \(resource.printable)") }
        console.out("Client:        \(report.clientID.printable)")
        console.out("Session file:  \(report.sessionFile.printable)")
        return .success
    }

    /// `date` in UTC as an RFC 3339 date-time to the second (`2027-01-15T09:00:00Z`), written with
    /// `gmtime_r`: Foundation's formatters first look up the local time zone and build a calendar,
    /// which costs `status` a noticeable share of its start-up.
    package static func internetDateTime(_ date: Date) -> String {
        let since1970 = date.timeIntervalSince1970
        guard since1970.isFinite, abs(since1970) <= AuthState.largestStoredSeconds else { return "" }
        var seconds = time_t(since1970.rounded(.down))
        var fields = tm()
        guard gmtime_r(&seconds, &fields) != nil else { return "" }
        func padded(_ value: Int32, _ width: Int = 2) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(fields.tm_year + 1900, 4) + "-" + padded(fields.tm_mon + 1) + "-" + padded(fields.tm_mday)
            + "T" + padded(fields.tm_hour) + ":" + padded(fields.tm_min) + ":" + padded(fields.tm_sec) + "Z"
    }
}
