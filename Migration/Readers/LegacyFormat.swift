public import Bearer
@_spi(Internals) @_spi(Migration) import BearerCore
public import Foundation

/// The session formats Bearer reads.
public enum LegacyFormat: String, Sendable, Hashable, CaseIterable {
    /// A GTMOAuth2 persistence string (gtm-oauth2 or GTMAppAuth's compatibility dialect).
    case gtmOAuth2
    /// A GTMAppAuth keyed archive.
    case gtmAppAuth
    /// Google application default credentials (`authorized_user`).
    case applicationDefaultCredentials
    /// Bearer's own envelope.
    case bearer

    /// Recognises the format of an item from its bytes.
    ///
    /// GoogleSignIn's legacy layout spans several items and is read with ``GoogleSignInLegacy``.
    ///
    /// - Parameter data: The item.
    /// - Returns: The format, or `nil` when it is none of these.
    public static func detect(_ data: Data) -> LegacyFormat? {
        if data.starts(with: Array("bplist00".utf8)) { return .gtmAppAuth }
        if let json = try? JSONDecoder().decodeRefusingDeepNesting([String: JSONValue].self, from: data) {
            if json["version"] != nil && json["server"] != nil { return .bearer }
            if json["type"] != nil && json["refresh_token"] != nil { return .applicationDefaultCredentials }
            return nil
        }
        guard let text = String(data: data, encoding: .utf8), !text.contains("\n"), !text.contains(" ") else {
            return nil
        }
        let fields = GTMOAuth2PersistenceString.fields(of: text)
        return fields["refresh_token"] != nil || fields["access_token"] != nil ? .gtmOAuth2 : nil
    }

    /// Reads an item of this format.
    ///
    /// - Parameters:
    ///   - data: The item.
    ///   - server: The server, for formats that do not record it (GTMOAuth2 strings); Google by default.
    ///   - client: The client, for formats that do not record it (GTMOAuth2 strings).
    /// - Returns: The session.
    /// - Throws: ``MigrationError`` or, for Bearer's envelope, ``BearerError``.
    public func decode(_ data: Data, server: AuthorizationServer = .google, client: Client? = nil) throws -> AuthState {
        switch self {
        case .gtmOAuth2:
            guard let client else {
                throw MigrationError.malformedItem(
                    "A GTMOAuth2 persistence string does not record its client; pass the client ID it was issued to."
                )
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw MigrationError.malformedItem(
                    "The GTMOAuth2 persistence string is not UTF-8; re-export the item's bytes unconverted.")
            }
            return try GTMOAuth2PersistenceString.decode(text, server: server, client: client)
        case .gtmAppAuth:
            return try GTMAppAuthArchive.decode(data)
        case .applicationDefaultCredentials:
            return try ApplicationDefaultCredentials.decode(data)
        case .bearer:
            return try AuthState(encoded: data)
        }
    }
}
