#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension AuthState: Codable {
    /// The newest envelope version this release reads and writes: 4, for a derived session, so
    /// that a release that knows nothing of derivation refuses it (and keeps it) rather than save
    /// it without its recipe. A session whose tokens are for one protected resource is written as
    /// version 3, so that a release that knows nothing of resources refuses it rather than send its
    /// tokens elsewhere or refresh without `resource`.
    /// A session bound to a DPoP key is written as version 2, for the same reason; a Bearer
    /// session as version 1, which every release reads.
    public static let currentVersion = derivedVersion

    /// The envelope version of a derived session.
    static let derivedVersion = 4

    /// The envelope version of a session for one protected resource.
    static let resourceVersion = 3

    /// The envelope version of a session bound to a DPoP key, which releases since DPoP read.
    static let dpopVersion = 2

    /// The envelope version of a Bearer session, which releases before DPoP read too.
    static let bearerVersion = 1

    /// The largest magnitude of a stored date (seconds since 1970) or lifetime read: about the
    /// year 5138. A file holding more is corrupt.
    @_spi(CommandLine) public static let largestStoredSeconds: Double = 100_000_000_000

    private enum CodingKeys: String, CodingKey {
        case version, server, client, accessToken, accessTokenExpiresAt, accessTokenLifetime, refreshToken, idToken
        case grantedScopes, requestedScopes, user, additionalParameters, metadata, authorizationResponseParameters
        case signInRequiredError = "signInRequiredError"
        case refreshTokenExpiresAt, idTokenRejection
        case accessTokenType = "tokenType"
        case dpopKey
        case resource
        case providerSessionID
        case derivation
    }

    private struct StoredRejection: Codable {
        var reason: String
    }

    private struct StoredError: Codable {
        var code: String
        var errorDescription: String?
        var errorURI: String?
        var statusCode: Int?
    }

    /// Decodes a saved session from its versioned envelope (`{"version": 1, …}`).
    ///
    /// - Throws: ``BearerError/Kind/unreadableSession`` for an envelope written by a newer
    ///   release, or one that cannot be read.
    public init(from decoder: any Decoder) throws {
        do {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let version = try container.decode(Int.self, forKey: .version)
            guard (Self.bearerVersion...Self.currentVersion).contains(version) else {
                throw BearerError.unreadableSession(
                    "The saved session has format version \(version); this release reads versions 1 to "
                        + "\(Self.currentVersion). Update Bearer, or sign in again."
                )
            }
            let storedError = try container.decodeIfPresent(StoredError.self, forKey: .signInRequiredError)
            let accessTokenExpiresAt = try Self.checkedDate(container, .accessTokenExpiresAt)
            let refreshTokenExpiresAt = try Self.checkedDate(container, .refreshTokenExpiresAt)
            let accessTokenLifetime = try Self.checkedSeconds(
                container.decodeIfPresent(TimeInterval.self, forKey: .accessTokenLifetime), .accessTokenLifetime)
            self.init(
                server: try container.decode(AuthorizationServer.self, forKey: .server),
                client: try container.decode(Client.self, forKey: .client),
                accessToken: try container.decodeIfPresent(AccessToken.self, forKey: .accessToken),
                accessTokenExpiresAt: accessTokenExpiresAt,
                accessTokenLifetime: accessTokenLifetime,
                accessTokenType: try container.decodeIfPresent(AccessTokenType.self, forKey: .accessTokenType)
                    ?? .bearer,
                dpopKey: try container.decodeIfPresent(DPoPKeyRecord.self, forKey: .dpopKey),
                resource: try container.decodeIfPresent(ProtectedResource.self, forKey: .resource),
                refreshToken: try container.decodeIfPresent(RefreshToken.self, forKey: .refreshToken),
                refreshTokenExpiresAt: refreshTokenExpiresAt,
                idToken: try container.decodeIfPresent(IDToken.self, forKey: .idToken),
                idTokenRejection: try container.decodeIfPresent(StoredRejection.self, forKey: .idTokenRejection)
                    .map { BearerError.invalidIDToken($0.reason) },
                grantedScopes: try container.decode([String].self, forKey: .grantedScopes),
                requestedScopes: try container.decodeIfPresent([String].self, forKey: .requestedScopes) ?? [],
                user: try container.decodeIfPresent(User.self, forKey: .user),
                providerSessionID: try container.decodeIfPresent(String.self, forKey: .providerSessionID),
                signInRequiredError: storedError.map {
                    OAuthError(
                        code: OAuthError.Code(rawValue: $0.code),
                        errorDescription: $0.errorDescription,
                        errorURI: $0.errorURI,
                        statusCode: $0.statusCode
                    )
                },
                // The same limits as for a fresh answer: a field no JSON can hold (a number that
                // could not be read) is dropped, so the session saves and reads back the same.
                additionalParameters: JSONValue.keeping(
                    try container.decodeIfPresent([String: JSONValue].self, forKey: .additionalParameters) ?? [:],
                    maximumDepth: TokenResponse.maximumKeptDepth,
                    maximumBytes: TokenResponse.maximumKeptBytes
                ),
                metadata: try container.decodeIfPresent([String: String].self, forKey: .metadata) ?? [:],
                authorizationResponseParameters: try container.decodeIfPresent(
                    [String: String].self, forKey: .authorizationResponseParameters) ?? [:]
            )
            derivation = try container.decodeIfPresent(SessionDerivation.self, forKey: .derivation)
        } catch let error as BearerError where error.kind == .unreadableSession {
            throw error
        } catch {
            throw BearerError.unreadableSession(
                "The saved session cannot be read (\(Self.describe(error))); it was not changed. Sign in again "
                    + "to replace it."
            )
        }
    }

    /// A stored date, refused when out of range: nothing that reads the session later (an expiry
    /// turned into whole seconds) may meet a date of 1e300 seconds, which would trap.
    private static func checkedDate(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws
        -> Date?
    {
        let date = try container.decodeIfPresent(Date.self, forKey: key)
        _ = try checkedSeconds(date?.timeIntervalSince1970, key)
        return date
    }

    private static func checkedSeconds(_ seconds: Double?, _ key: CodingKeys) throws -> Double? {
        guard let seconds else { return nil }
        guard seconds.isFinite, abs(seconds) <= largestStoredSeconds else {
            throw BearerError.unreadableSession(
                "The saved session's \(key.stringValue) is out of range; it was not changed. Sign in again "
                    + "to replace it."
            )
        }
        return seconds
    }

    /// Encodes the session in the current envelope version.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let boundToKey = dpopKey != nil || accessTokenType != .bearer
        let version =
            derivation != nil
            ? Self.derivedVersion
            : resource != nil ? Self.resourceVersion : boundToKey ? Self.dpopVersion : Self.bearerVersion
        try container.encode(version, forKey: .version)
        try container.encode(server, forKey: .server)
        try container.encode(client, forKey: .client)
        try container.encodeIfPresent(accessToken, forKey: .accessToken)
        try container.encodeIfPresent(accessTokenExpiresAt, forKey: .accessTokenExpiresAt)
        try container.encodeIfPresent(accessTokenLifetime, forKey: .accessTokenLifetime)
        if accessTokenType != .bearer {
            try container.encode(accessTokenType, forKey: .accessTokenType)
        }
        try container.encodeIfPresent(dpopKey, forKey: .dpopKey)
        try container.encodeIfPresent(resource, forKey: .resource)
        try container.encodeIfPresent(derivation, forKey: .derivation)
        try container.encodeIfPresent(refreshToken, forKey: .refreshToken)
        try container.encodeIfPresent(refreshTokenExpiresAt, forKey: .refreshTokenExpiresAt)
        try container.encodeIfPresent(idToken, forKey: .idToken)
        try container.encodeIfPresent(
            idTokenRejection.map { StoredRejection(reason: $0.reason) }, forKey: .idTokenRejection)
        try container.encode(grantedScopes, forKey: .grantedScopes)
        try container.encode(requestedScopes, forKey: .requestedScopes)
        try container.encodeIfPresent(user, forKey: .user)
        try container.encodeIfPresent(providerSessionID, forKey: .providerSessionID)
        try container.encodeIfPresent(
            signInRequiredError.map {
                StoredError(
                    code: $0.code.rawValue,
                    errorDescription: $0.errorDescription,
                    errorURI: $0.errorURI,
                    statusCode: $0.statusCode
                )
            },
            forKey: .signInRequiredError
        )
        if !additionalParameters.isEmpty {
            try container.encode(additionalParameters, forKey: .additionalParameters)
        }
        if !metadata.isEmpty {
            try container.encode(metadata, forKey: .metadata)
        }
        if !authorizationResponseParameters.isEmpty {
            try container.encode(authorizationResponseParameters, forKey: .authorizationResponseParameters)
        }
    }

    /// Serializes the session as JSON (sorted keys, slashes unescaped, dates as seconds since 1970).
    ///
    /// The fields of token responses that Bearer does not interpret are kept within limits (see
    /// ``additionalParameters``); should they still fail to encode, the session is written without them,
    /// so the tokens are never lost to them.
    ///
    /// - Returns: The envelope.
    /// - Throws: ``BearerError/Kind/storageFailure`` when even the session without those fields
    ///   cannot be encoded (a date or number that JSON cannot hold).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        // Unescaped slashes keep every URL on the readers' fast path (no escapes to undo).
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        if let data = try? encoder.encode(self) { return data }
        var trimmed = self
        trimmed.additionalParameters = [:]
        do {
            return try encoder.encode(trimmed)
        } catch {
            throw BearerError.storageFailure(
                "The session cannot be encoded for saving (\(Self.describe(error))); it was kept in memory. "
                    + "Sign in again to replace it."
            )
        }
    }

    /// Reads a session serialized by ``encoded()``.
    ///
    /// - Parameter data: The envelope.
    /// - Throws: ``BearerError/Kind/unreadableSession`` when the text is not JSON Bearer reads (see
    ///   the UTF-8 and nesting rules of stored JSON), or does not hold a session this release reads.
    public init(encoded data: Data) throws {
        do {
            self = try JSONValueDecoder.decode(AuthState.self, from: data)
        } catch let error as BearerError {
            throw error
        } catch {
            throw BearerError.unreadableSession(
                "The saved session is not valid JSON (\(Self.describe(error))); it was not changed. Sign in again "
                    + "to replace it."
            )
        }
    }

    /// The envelope version of a serialized session, when its text says one, whether or not this
    /// release reads it: a newer release's session holds a grant that must not be thrown away
    /// as if the file were corrupt.
    static func formatVersion(ofEncoded data: Data) -> Int? {
        struct Envelope: Decodable { var version: Int }
        return try? JSONValueDecoder.decode(Envelope.self, from: data).version
    }

    /// Describes a decoding error by its coding path only, so no stored value is echoed.
    private static func describe(_ error: any Error) -> String {
        if let bearerError = error as? BearerError { return bearerError.kind.description }
        if let failure = error as? JSONParser.Failure { return failure.description }
        if let encodingError = error as? EncodingError, case .invalidValue(_, let context) = encodingError {
            return "bad value at \(path(context.codingPath))"
        }
        guard let decodingError = error as? DecodingError else { return "unreadable data" }
        switch decodingError {
        case .keyNotFound(let key, let context):
            return "missing \(path(context.codingPath + [key]))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "bad value at \(path(context.codingPath))"
        @unknown default:
            return "unreadable data"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
