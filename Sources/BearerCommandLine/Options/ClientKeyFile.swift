@_spi(CommandLine) import Bearer
@_spi(CommandLine) @_spi(Internals) import BearerCore
import Foundation

/// A `private_key_jwt` client's key in a file of its own (`bearer client-key FILE`, `bearer login
/// --client-key-file FILE`): a private P-256 JWK (RFC 7517, RFC 7518 §6.2.2), readable only by its
/// owner, which the tool creates and reads but never replaces or prints.
///
/// A profile signed in with one saves the file's absolute path, so its refreshes read the key
/// again; the source reads the file only when an assertion is signed.
struct ClientKeyFile: ClientKeySource {
    /// Where a profile saves the key file's path.
    static let metadataKey = "bearer.clientKeyFile"
    /// Where a profile saves that its assertions name the endpoint (`--assertion-audience endpoint`).
    static let audienceMetadataKey = "bearer.assertionAudience"
    /// Larger files are not one key but a mistake.
    static let maximumSize = 8_192

    /// The file's absolute path.
    let url: URL

    /// The file at `path`, relative to the current folder unless absolute.
    init(path: String) {
        url = URL(fileURLWithPath: path).standardizedFileURL
    }

    /// The key file a profile's session was signed in with, if any.
    init?(recordedIn state: AuthState) {
        guard let path = state.metadata[Self.metadataKey], path.hasPrefix("/") else { return nil }
        self.init(path: path)
    }

    /// Saves the file's path and the assertions' audience in `state`, so that the profile's
    /// refreshes sign with the same key for the same audience.
    func record(audience: ClientAssertionAudience, in state: inout AuthState) {
        state.metadata[Self.metadataKey] = url.path
        state.metadata[Self.audienceMetadataKey] = audience == .endpoint ? "endpoint" : nil
    }

    /// The audience saved in `state`.
    static func audience(recordedIn state: AuthState) -> ClientAssertionAudience {
        state.metadata[audienceMetadataKey] == "endpoint" ? .endpoint : .issuer
    }

    /// The key in the file, whatever the client and server.
    ///
    /// - Throws: ``BearerError/Kind/proofOfPossession`` saying what is wrong with the file, which
    ///   the session reports as it is; nothing is sent then, and the session is kept.
    func key(for client: Client, at server: AuthorizationServer) async throws -> any DPoPKey {
        do {
            return try read()
        } catch let failure as ToolFailure {
            throw BearerError.proofOfPossession(failure.message + " Nothing was sent; the session was kept.")
        }
    }

    /// The key the file holds.
    ///
    /// - Throws: ``ToolFailure`` when the file is missing, too large, or not a private P-256 JWK;
    ///   ``BearerError/Kind/insecureStorage`` when others can read or write it, or it is a link.
    func read() throws -> any DPoPKey {
        guard let key = try existingKey() else {
            throw ToolFailure(
                "There is no client key file \(url.path.printable); create one with `bearer client-key "
                    + "\(url.path.printable)` and register the key set it prints with the server.")
        }
        return key
    }

    /// The key the file holds, or `nil` when there is no file.
    ///
    /// - Throws: as ``read()`` does, for a file that is there.
    func existingKey() throws -> (any DPoPKey)? {
        guard let data = try PrivateFile.read(url, holding: "key") else { return nil }
        return try Self.key(in: data, named: url.path)
    }

    /// The key a key file's contents hold: a private P-256 JWK.
    ///
    /// - Parameters:
    ///   - data: The file's contents.
    ///   - path: The file's path, for messages.
    /// - Throws: ``ToolFailure`` for anything else, naming the file but none of its contents.
    static func key(in data: Data, named path: String) throws -> any DPoPKey {
        guard data.count <= maximumSize,
            let fields = try? JSONDecoder().decodeRefusingDeepNesting([String: JSONValue].self, from: data),
            fields["kty"] == "EC", fields["crv"] == "P-256",
            let x = fields["x"]?.stringValue.flatMap(bytes), let y = fields["y"]?.stringValue.flatMap(bytes),
            let scalar = fields["d"]?.stringValue.flatMap(bytes)
        else {
            throw ToolFailure(
                "The client key file \(path.printable) is not a private P-256 JSON Web Key "
                    + "(kty EC, crv P-256, x, y and d); create a key with `bearer client-key NEW-FILE`.")
        }
        do {
            return try PlatformDPoPKeys().key(privateScalar: scalar, publicKey: try DPoPPublicKey(x: x, y: y))
        } catch {
            throw ToolFailure(
                "The client key file \(path.printable) holds a private key that does not match its public "
                    + "key (x, y), or is not a P-256 key; create a key with `bearer client-key NEW-FILE`.")
        }
    }

    /// Makes a new key and writes it to the file, with mode 0600, where the file does not exist;
    /// a key is never replaced, since a server may have it registered.
    ///
    /// - Returns: The key, and whether it is new.
    /// - Throws: as ``read()`` does, for a file that is there; ``BearerError`` when a new key cannot be written.
    func existingOrNewKey() async throws -> (key: any DPoPKey, isNew: Bool) {
        if let key = try existingKey() { return (key, false) }
        let key = try await PlatformDPoPKeys().makeKey()
        guard let scalar = key.record.privateKey.bytes else {
            throw ToolFailure("The platform made a key whose private part cannot be written to a file.")
        }
        let publicKey = key.record.publicKey
        let fields: [String: String] = [
            "kty": "EC", "crv": "P-256", "alg": "ES256", "use": "sig", "kid": publicKey.thumbprint,
            "x": Base64URL.encode(publicKey.x), "y": Base64URL.encode(publicKey.y), "d": Base64URL.encode(scalar),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try PrivateFile.write(try encoder.encode(fields) + Data("\n".utf8), toFileInExistingFolder: url)
        return (key, true)
    }

    /// The bytes of a base64url member, 32 of them.
    private static func bytes(_ member: String) -> [UInt8]? {
        guard let data = Base64URL.decode(member), data.count == 32 else { return nil }
        return Array(data)
    }
}
