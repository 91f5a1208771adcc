public import Bearer
@_spi(Internals) @_spi(Migration) import BearerCore
import Foundation

/// GTMOAuth2 persistence strings, as gtm-oauth2 and GTMAppAuth's compatibility code keep them in
/// the keychain: `key=value` pairs joined with `&`.
///
/// Two dialects exist. gtm-oauth2 writes `email` and `isVerified` (`1`/`0`) and saves
/// `access_token` only when there is no refresh token; GTMAppAuth 3 and later write `userEmail`
/// and `userEmailIsVerified` and always save `access_token`. Both are read; both can be written,
/// with every reserved character escaped (GTMAppAuth leaves `% # [ ]` unescaped, which corrupts
/// values that contain them).
///
/// ```swift
/// let state = try GTMOAuth2PersistenceString.decode(saved, server: .google, client: client)
/// ```
public enum GTMOAuth2PersistenceString {
    /// Which library's keys to write.
    public enum Dialect: String, Sendable, Hashable, CaseIterable {
        /// gtm-oauth2: `email`, `isVerified` (`1`/`0`), `access_token` only without a refresh token.
        case gtmOAuth2
        /// GTMAppAuth 3 and later: `userEmail`, `userEmailIsVerified` (`true`/`false`), `access_token` always.
        case gtmAppAuth
    }

    /// The metadata key prefix under which fields Bearer does not interpret are kept.
    private static let unknownFieldPrefix = "gtmoauth2."

    private static let knownKeys: Set<String> = [
        "access_token", "refresh_token", "scope", "serviceProvider", "userID", "email", "isVerified", "userEmail",
        "userEmailIsVerified",
    ]

    /// Splits a persistence string as gtm-oauth2 does: on `&`, the key before the first `=`, a
    /// missing value empty, both percent-decoded (`+` stays `+`), the last duplicate winning.
    ///
    /// - Parameter string: The persistence string.
    /// - Returns: Its fields.
    public static func fields(of string: String) -> [String: String] {
        var fields: [String: String] = [:]
        for item in string.split(separator: "&", omittingEmptySubsequences: true) {
            if let equals = item.firstIndex(of: "=") {
                fields[percentDecode(item[..<equals])] = percentDecode(item[item.index(after: equals)...])
            } else {
                fields[percentDecode(item)] = ""
            }
        }
        return fields
    }

    /// Reads a persistence string of either dialect into a session that needs a refresh.
    ///
    /// - Parameters:
    ///   - string: The persistence string.
    ///   - server: The server the tokens belong to (the string does not say).
    ///   - client: The client the tokens were issued to.
    /// - Returns: The session; its access token, if any, is marked as expired.
    /// - Throws: ``MigrationError/Kind/malformedItem`` when it holds no refresh token and no
    ///   access token of RFC 6750's `b64token` characters.
    public static func decode(_ string: String, server: AuthorizationServer, client: Client) throws -> AuthState {
        let fields = fields(of: string)
        // An access token outside RFC 6750's b64token characters is none (a session never holds
        // one, see B64Token); a refresh token only goes, form-encoded, to the token endpoint.
        let refreshToken = fields["refresh_token"].flatMap { $0.isEmpty ? nil : RefreshToken($0) }
        let accessToken = fields["access_token"].flatMap { B64Token.isValid($0) ? AccessToken($0) : nil }
        guard refreshToken != nil || accessToken != nil else {
            throw MigrationError.malformedItem(
                "The GTMOAuth2 persistence string holds neither a refresh token nor an access token; the user must sign in "
                    + "again."
            )
        }
        let email = fields["userEmail"] ?? fields["email"]
        let verified = (fields["userEmailIsVerified"] ?? fields["isVerified"]).map(objectiveCBoolValue)
        let subject = fields["userID"]
        var metadata: [String: String] = [:]
        if let serviceProvider = fields["serviceProvider"] { metadata["serviceProvider"] = serviceProvider }
        if let text = fields["userEmailIsVerified"] { metadata[unknownFieldPrefix + "userEmailIsVerified"] = text }
        for (key, value) in fields where !knownKeys.contains(key) {
            metadata[unknownFieldPrefix + key] = value
        }
        return AuthState(
            server: server,
            client: client,
            accessToken: accessToken,
            accessTokenExpiresAt: accessToken == nil ? nil : .distantPast,
            refreshToken: refreshToken,
            grantedScopes: Scopes.parse(fields["scope"] ?? ""),
            user: subject != nil || email != nil
                ? AuthState.User(subject: subject ?? "", email: email, emailVerified: verified) : nil,
            metadata: metadata
        )
    }

    /// Writes a session as a persistence string of `dialect`, keys sorted case-insensitively and
    /// every character but `A–Z a–z 0–9 - . _ ~` percent-encoded.
    ///
    /// - Parameters:
    ///   - state: The session.
    ///   - dialect: Which library's keys to write.
    /// - Returns: The persistence string.
    public static func encode(_ state: AuthState, dialect: Dialect) -> String {
        var fields: [String: String] = [:]
        if let refreshToken = state.refreshToken { fields["refresh_token"] = refreshToken.value }
        if let accessToken = state.accessToken, dialect == .gtmAppAuth || state.refreshToken == nil {
            fields["access_token"] = accessToken.value
        }
        if !state.grantedScopes.isEmpty { fields["scope"] = state.grantedScopes.joined(separator: " ") }
        if let serviceProvider = state.metadata["serviceProvider"] { fields["serviceProvider"] = serviceProvider }
        if let user = state.user {
            if !user.subject.isEmpty { fields["userID"] = user.subject }
            switch dialect {
            case .gtmOAuth2:
                if let email = user.email { fields["email"] = email }
                if let verified = user.emailVerified { fields["isVerified"] = verified ? "1" : "0" }
            case .gtmAppAuth:
                if let email = user.email { fields["userEmail"] = email }
                // GTMAppAuth writes back the text it read; "true"/"false" when there was none.
                let read = state.metadata[unknownFieldPrefix + "userEmailIsVerified"]
                if let verified = user.emailVerified {
                    fields["userEmailIsVerified"] =
                        read.flatMap { objectiveCBoolValue($0) == verified ? $0 : nil } ?? (verified ? "true" : "false")
                }
            }
        }
        for (key, value) in state.metadata where key.hasPrefix(unknownFieldPrefix) {
            let name = String(key.dropFirst(unknownFieldPrefix.count))
            if !knownKeys.contains(name) { fields[name] = value }
        }
        return fields.keys
            .sorted { $0.lowercased() == $1.lowercased() ? $0 < $1 : $0.lowercased() < $1.lowercased() }
            .map { percentEncode($0) + "=" + percentEncode(fields[$0] ?? "") }
            .joined(separator: "&")
    }

    /// `-[NSString boolValue]`: after spaces, a sign and zeros, `Y y T t` or a digit 1–9 is true.
    static func objectiveCBoolValue(_ text: String) -> Bool {
        var rest = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        rest = rest.drop { $0 == "0" }
        guard let first = rest.first else { return false }
        return "YyTt123456789".contains(first)
    }

    /// Percent-decodes `%XX` escapes; an invalid escape is kept as it is, and `+` stays `+`.
    static func percentDecode(_ text: Substring) -> String {
        FormEncoding.percentDecode(text)
    }

    /// Percent-encodes everything but `A–Z a–z 0–9 - . _ ~`; a space becomes `%20`.
    static func percentEncode(_ text: String) -> String {
        FormEncoding.percentEncode(text)
    }
}
