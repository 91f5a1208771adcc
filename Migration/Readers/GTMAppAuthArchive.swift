public import Bearer
@_spi(Internals) @_spi(Migration) import BearerCore
public import Foundation

/// GTMAppAuth's keychain items: `NSKeyedArchiver` archives of a `GTMAppAuthFetcherAuthorization`
/// (every GTMAppAuth version writes this class name; 3 and later decode it as `GTMAuthSession`)
/// wrapping AppAuth's `OIDAuthState`.
///
/// Reading walks the archive's object graph without the Objective-C classes; writing produces an
/// archive that GTMAppAuth can read back, so an app can roll back a release without signing
/// anybody out.
public enum GTMAppAuthArchive {
    /// The root class names accepted.
    static let rootClassNames: Set<String> = ["GTMAppAuthFetcherAuthorization", "GTMAuthSession"]

    /// Metadata keys that keep archive values Bearer has no field for.
    enum MetadataKey {
        static let serviceProvider = "serviceProvider"
        static let expiresAt = "gtmappauth.expiresAt"
        static let needsTokenRefresh = "gtmappauth.needsTokenRefresh"
    }

    /// Reads an archive into a session.
    ///
    /// The issuer is the one the archived service configuration names, else the one of its
    /// discovery document, else the `iss` of the archived ID token; archives whose endpoints are
    /// Google's are Google's. An archive that names none of these needs `issuer`.
    ///
    /// - Parameters:
    ///   - data: The keychain item's data.
    ///   - issuer: The server's issuer identifier, for archives that do not name it. When the
    ///     archive names another one, the archive is refused rather than either being guessed.
    /// - Returns: The session. Like every migrated session it needs a refresh before use; the
    ///   archived expiry and refresh flag are kept in `AuthState.metadata` for writing back.
    /// - Throws: ``MigrationError`` of kind ``MigrationError/Kind/malformedArchive`` for a damaged
    ///   archive (truncated, cyclic, dangling references), ``MigrationError/Kind/malformedItem``
    ///   when it lacks what a session needs (an issuer included, when `issuer` is `nil`), or
    ///   ``MigrationError/Kind/conflictingSettings`` when it names an issuer other than `issuer`.
    public static func decode(_ data: Data, issuer: URL? = nil) throws -> AuthState {
        try ArchiveReading(archive: KeyedArchive(data), explicitIssuer: issuer).state()
    }

    /// Writes a session as a GTMAppAuth archive.
    ///
    /// - Parameter state: The session.
    /// - Returns: The archive's bytes.
    public static func encode(_ state: AuthState) -> Data {
        ArchiveWriting.encode(state)
    }
}

/// Walks a GTMAppAuth archive.
private struct ArchiveReading {
    let archive: KeyedArchive
    /// The issuer the caller gave, if any.
    let explicitIssuer: URL?

    func state() throws -> AuthState {
        let root = archive.root
        guard let rootClass = try archive.className(of: root), GTMAppAuthArchive.rootClassNames.contains(rootClass)
        else {
            throw MigrationError.malformedItem(
                "The archive does not hold a GTMAppAuth authorization; check which format the item is in and read it "
                    + "with that format's decoder (`bearer migrate --from`).")
        }
        guard let authState = try archive.object("authState", in: root) else {
            throw Self.lacking("has no authState")
        }
        let tokenResponse = try archive.object("lastTokenResponse", in: authState)
        let authorizationResponse = try archive.object("lastAuthorizationResponse", in: authState)
        let authorizationRequest = try authorizationResponse.flatMap { try archive.object("request", in: $0) }
        let tokenRequest = try tokenResponse.flatMap { try archive.object("request", in: $0) }
        let requests = [authorizationRequest, tokenRequest].compactMap { $0 }

        guard let clientID = try first("client_id", in: requests) else {
            throw Self.lacking("names no client_id")
        }
        let secret = try first("client_secret", in: requests)
        let redirect = try requests.lazy.compactMap { try archive.url("redirect_uri", in: $0) }.first
        let client = Client(
            id: clientID,
            secret: secret.map(ClientSecret.init),
            redirectURI: redirect ?? LegacyDefaults.outOfBandRedirect
        )
        let configuration = try requests.lazy.compactMap { try archive.object("configuration", in: $0) }.first
        guard let configuration else {
            throw Self.lacking("has no service configuration")
        }
        let idToken = try tokenResponse.flatMap { try archive.string("id_token", in: $0) }.flatMap { try? IDToken($0) }
        let server = try self.server(configuration, idToken: idToken)

        let refreshToken =
            try archive.string("refreshToken", in: authState)
            ?? tokenResponse.flatMap { try archive.string("refresh_token", in: $0) }
        let accessToken = try tokenResponse.flatMap { try archive.string("access_token", in: $0) }
        guard refreshToken != nil || accessToken != nil else {
            throw MigrationError.malformedItem("The GTMAppAuth archive holds no token; the user must sign in again.")
        }
        let expiry = try tokenResponse.flatMap { try archive.date("expires_in", in: $0) }
        let needsRefresh = try archive.bool("needsTokenRefresh", in: authState) ?? false
        let scope =
            try tokenResponse.flatMap { try archive.string("scope", in: $0) }
            ?? archive.string("scope", in: authState)
            ?? authorizationRequest.flatMap { try archive.string("scope", in: $0) }

        var metadata: [String: String] = [:]
        if let provider = try archive.string("serviceProvider", in: archive.root) {
            metadata[GTMAppAuthArchive.MetadataKey.serviceProvider] = provider
        }
        if let expiry {
            metadata[GTMAppAuthArchive.MetadataKey.expiresAt] = String(expiry.timeIntervalSince1970)
        }
        metadata[GTMAppAuthArchive.MetadataKey.needsTokenRefresh] = needsRefresh ? "true" : "false"
        var signInRequiredError: OAuthError?
        if let error = try archive.object("authorizationError", in: authState) {
            let domain = try archive.string("NSDomain", in: error) ?? "unknown domain"
            signInRequiredError = OAuthError(
                code: .invalidGrant,
                errorDescription: "GTMAppAuth recorded an authorization error (\(domain))."
            )
        }
        let additional = try tokenResponse.flatMap { try archive.dictionary("additionalParameters", in: $0) } ?? [:]
        return AuthState(
            server: server,
            client: client,
            accessToken: accessToken.map(AccessToken.init),
            accessTokenExpiresAt: accessToken == nil ? nil : .distantPast,
            refreshToken: refreshToken.map(RefreshToken.init),
            idToken: idToken,
            grantedScopes: Scopes.parse(scope ?? ""),
            requestedScopes: Scopes.parse(
                try authorizationRequest.flatMap { try archive.string("scope", in: $0) } ?? ""),
            user: try user(idToken: idToken),
            signInRequiredError: signInRequiredError,
            additionalParameters: additional,
            metadata: metadata
        )
    }

    /// An archive that lacks a part a session needs: a fresh export may have it, else the user signs in again.
    private static func lacking(_ part: String, file: String = #fileID, line: UInt = #line) -> MigrationError {
        MigrationError.malformedItem(
            "The GTMAppAuth archive \(part); re-export the item, or have the user sign in again.",
            file: file,
            line: line
        )
    }

    private func first(_ key: String, in objects: [Int]) throws -> String? {
        for object in objects {
            if let value = try archive.string(key, in: object), !value.isEmpty { return value }
        }
        return nil
    }

    /// The user, from the ID token when there is one (as GTMAppAuth does), else the archived fields.
    private func user(idToken: IDToken?) throws -> AuthState.User? {
        let root = archive.root
        let verified = try archive.string("userEmailIsVerified", in: root).map(
            GTMOAuth2PersistenceString.objectiveCBoolValue)
        if let claims = idToken?.claims {
            return AuthState.User(
                subject: claims.subject,
                email: try claims.email ?? archive.string("userEmail", in: root),
                emailVerified: claims.emailVerified ?? verified,
                name: claims.name
            )
        }
        let subject = try archive.string("userID", in: root)
        let email = try archive.string("userEmail", in: root)
        guard subject != nil || email != nil else { return nil }
        return AuthState.User(subject: subject ?? "", email: email, emailVerified: verified)
    }

    private func server(_ configuration: Int, idToken: IDToken?) throws -> AuthorizationServer {
        guard let authorization = try archive.url("authorizationEndpoint", in: configuration),
            let token = try archive.url("tokenEndpoint", in: configuration)
        else {
            throw Self.lacking("has a service configuration without an endpoint")
        }
        var document: [String: JSONValue] = [:]
        if let discovery = try archive.object("discoveryDocument", in: configuration),
            case .object(let fields) = try archive.jsonValue(of: discovery)
        {
            document = fields
        }
        func documentURL(_ name: String) -> URL? {
            document[name]?.stringValue.flatMap { URL(string: $0) }
        }
        let google = AuthorizationServer.google
        // Archives written without discovery name no issuer; Google's endpoints identify Google,
        // both of them: one foreign endpoint must not get Google's client authentication and
        // allow-list. The origin of an endpoint is no issuer: most servers' issuers have a path.
        let onGoogleHosts =
            AuthorizationServer.isGoogleHost(token.host) && AuthorizationServer.isGoogleHost(authorization.host)
        let recorded =
            try archive.url("issuer", in: configuration) ?? documentURL("issuer")
            ?? idToken.flatMap { Self.issuer(of: $0) } ?? (onGoogleHosts ? google.issuer : nil)
        let issuer = try Self.resolveIssuer(recorded: recorded, explicit: explicitIssuer)
        if issuer == google.issuer && !onGoogleHosts {
            throw Self.lacking(
                "names Google's issuer, but its endpoints are not both on Google's hosts (authorization on "
                    + "\(authorization.host ?? "no host"), token on \(token.host ?? "no host"))")
        }
        var server = AuthorizationServer(
            issuer: issuer,
            authorizationEndpoint: authorization,
            tokenEndpoint: token,
            revocationEndpoint: documentURL("revocation_endpoint"),
            deviceAuthorizationEndpoint: documentURL("device_authorization_endpoint"),
            userinfoEndpoint: documentURL("userinfo_endpoint"),
            sendsIssuerInAuthorizationResponse: document["authorization_response_iss_parameter_supported"]
                == .bool(true)
        )
        if server.isGoogle {
            server.revocationEndpoint = server.revocationEndpoint ?? google.revocationEndpoint
            server.deviceAuthorizationEndpoint =
                server.deviceAuthorizationEndpoint ?? google.deviceAuthorizationEndpoint
            server.userinfoEndpoint = server.userinfoEndpoint ?? google.userinfoEndpoint
        }
        return server
    }

    /// The `iss` of an ID token as a URL; Google's issuer may be written without its scheme.
    private static func issuer(of idToken: IDToken) -> URL? {
        let issuer = idToken.claims.issuer
        if issuer == "accounts.google.com" { return AuthorizationServer.google.issuer }
        guard let url = URL(string: issuer), let scheme = url.scheme?.lowercased(), ["https", "http"].contains(scheme),
            url.host != nil
        else { return nil }
        return url
    }

    /// The archive's issuer and the caller's must agree; one of them must exist.
    private static func resolveIssuer(recorded: URL?, explicit: URL?) throws -> URL {
        switch (recorded, explicit) {
        case (let recorded?, let explicit?) where recorded.absoluteString != explicit.absoluteString:
            throw MigrationError.conflictingSettings(
                "The GTMAppAuth archive names the issuer \(recorded.absoluteString), but "
                    + "\(explicit.absoluteString) was given; give the archive's issuer, or none.")
        case (let recorded?, _):
            return recorded
        case (nil, let explicit?):
            return explicit
        case (nil, nil):
            throw MigrationError.malformedItem(
                "The GTMAppAuth archive names no issuer (neither its service configuration nor an ID token does); "
                    + "give the server's issuer (`bearer migrate --issuer URL`, or the `issuer` parameter).")
        }
    }
}
