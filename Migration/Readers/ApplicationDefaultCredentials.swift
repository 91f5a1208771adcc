public import Bearer
@_spi(Internals) @_spi(Migration) import BearerCore
public import Foundation

/// Google application default credentials for a user (`"type": "authorized_user"`), as
/// `gcloud auth application-default login` writes them: a client and a refresh token.
public enum ApplicationDefaultCredentials {
    /// The metadata key prefix under which the file's other fields are kept.
    package static let fieldPrefix = "adc."

    /// Reads a credentials file.
    ///
    /// - Parameter data: The JSON file.
    /// - Returns: A session on Google that needs a refresh.
    /// - Throws: ``MigrationError/Kind/malformedItem`` when it is not an `authorized_user` file with
    ///   `client_id`, `client_secret` and `refresh_token`.
    public static func decode(_ data: Data) throws -> AuthState {
        guard let json = try? JSONDecoder().decodeRefusingDeepNesting([String: JSONValue].self, from: data) else {
            throw MigrationError.malformedItem(
                "The credentials file is not a JSON object; pass the file that `gcloud auth application-default login` wrote."
            )
        }
        guard json["type"]?.stringValue == "authorized_user" else {
            let type = json["type"]?.stringValue ?? "none"
            throw MigrationError.malformedItem(
                "The credentials file has type \"\(type)\"; only user credentials (authorized_user) hold a user session. "
                    + "Run `gcloud auth application-default login` to write them."
            )
        }
        func required(_ name: String) throws -> String {
            guard let value = json[name]?.stringValue, !value.isEmpty else {
                throw MigrationError.malformedItem(
                    "The credentials file has no \(name); run `gcloud auth application-default login` to write it again."
                )
            }
            return value
        }
        let client = Client(
            id: try required("client_id"),
            secret: ClientSecret(try required("client_secret")),
            redirectURI: LegacyDefaults.outOfBandRedirect
        )
        let refreshToken = RefreshToken(try required("refresh_token"))
        var scopes: [String] = []
        switch json["scopes"] {
        case .string(let text)?: scopes = Scopes.parse(text)
        case .array(let items)?: scopes = items.compactMap(\.stringValue)
        default: break
        }
        let secretFields: Set<String> = ["client_id", "client_secret", "refresh_token", "type", "token", "scopes"]
        var metadata: [String: String] = [:]
        for (key, value) in json where !secretFields.contains(key) {
            if let text = value.stringValue { metadata[fieldPrefix + key] = text }
        }
        return AuthState(
            server: .google,
            client: client,
            refreshToken: refreshToken,
            grantedScopes: scopes,
            metadata: metadata
        )
    }
}
