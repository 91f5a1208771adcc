import Bearer
import Foundation

/// Writes the object graph GTMAppAuth archives: the authorization wrapping AppAuth's state,
/// responses, requests and service configuration.
enum ArchiveWriting {
    static func encode(_ state: AuthState) -> Data {
        var archive = KeyedArchiveWriter()
        let configuration = archive.object(
            "OIDServiceConfiguration",
            [
                ("authorizationEndpoint", .object(archive.url(state.server.authorizationEndpoint))),
                ("tokenEndpoint", .object(archive.url(state.server.tokenEndpoint))),
                ("issuer", .object(archive.url(state.server.issuer))),
                ("discoveryDocument", .object(discovery(state.server, into: &archive))),
            ]
        )
        let client = state.client
        let scope = state.grantedScopes.joined(separator: " ")
        let requestedScope = (state.requestedScopes.isEmpty ? state.grantedScopes : state.requestedScopes)
            .joined(separator: " ")
        var authorizationRequestFields: [(String, KeyedArchiveWriter.Field)] = [
            ("configuration", .object(configuration)),
            ("response_type", .object(archive.string("code"))),
            ("client_id", .object(archive.string(client.id))),
            ("scope", .object(archive.string(requestedScope))),
            ("redirect_uri", .object(archive.url(client.redirectURI))),
            ("additionalParameters", .object(archive.dictionary([:]))),
        ]
        if let secret = client.secret {
            authorizationRequestFields.append(("client_secret", .object(archive.string(secret.value))))
        }
        let authorizationRequest = archive.object("OIDAuthorizationRequest", authorizationRequestFields)
        let authorizationResponse = archive.object(
            "OIDAuthorizationResponse",
            [("request", .object(authorizationRequest)), ("additionalParameters", .object(archive.dictionary([:])))]
        )

        var tokenRequestFields: [(String, KeyedArchiveWriter.Field)] = [
            ("configuration", .object(configuration)),
            ("grant_type", .object(archive.string("refresh_token"))),
            ("client_id", .object(archive.string(client.id))),
            ("redirect_uri", .object(archive.url(client.redirectURI))),
            ("scope", .object(archive.string(scope))),
            ("additionalParameters", .object(archive.dictionary([:]))),
        ]
        if let secret = client.secret {
            tokenRequestFields.append(("client_secret", .object(archive.string(secret.value))))
        }
        if let refreshToken = state.refreshToken {
            tokenRequestFields.append(("refresh_token", .object(archive.string(refreshToken.value))))
        }
        let tokenRequest = archive.object("OIDTokenRequest", tokenRequestFields)

        let needsRefresh =
            state.metadata[GTMAppAuthArchive.MetadataKey.needsTokenRefresh].map { $0 == "true" }
            ?? (state.accessTokenExpiresAt == .distantPast)
        var tokenResponseFields: [(String, KeyedArchiveWriter.Field)] = [
            ("request", .object(tokenRequest)),
            ("token_type", .object(archive.string("Bearer"))),
            ("scope", .object(archive.string(scope))),
            ("additionalParameters", .object(archive.dictionary(state.additionalParameters))),
        ]
        if let accessToken = state.accessToken {
            tokenResponseFields.append(("access_token", .object(archive.string(accessToken.value))))
        }
        let storedExpiry = state.metadata[GTMAppAuthArchive.MetadataKey.expiresAt].flatMap(Double.init).map {
            Date(timeIntervalSince1970: $0)
        }
        let expiry = state.accessTokenExpiresAt == .distantPast ? storedExpiry : state.accessTokenExpiresAt
        if let expiry {
            tokenResponseFields.append(("expires_in", .object(archive.date(expiry))))
        }
        if let idToken = state.idToken {
            tokenResponseFields.append(("id_token", .object(archive.string(idToken.value))))
        }
        if let refreshToken = state.refreshToken {
            tokenResponseFields.append(("refresh_token", .object(archive.string(refreshToken.value))))
        }
        let tokenResponse = archive.object("OIDTokenResponse", tokenResponseFields)

        var authStateFields: [(String, KeyedArchiveWriter.Field)] = [
            ("lastAuthorizationResponse", .object(authorizationResponse)),
            ("lastTokenResponse", .object(tokenResponse)),
            ("scope", .object(archive.string(scope))),
            ("needsTokenRefresh", .bool(needsRefresh)),
        ]
        if let refreshToken = state.refreshToken {
            authStateFields.append(("refreshToken", .object(archive.string(refreshToken.value))))
        }
        if state.signInRequiredError != nil {
            let archived = archive.error(code: -10, domain: "org.openid.appauth.oauth_token")
            authStateFields.append(("authorizationError", .object(archived)))
        }
        let authState = archive.object("OIDAuthState", authStateFields)

        var rootFields: [(String, KeyedArchiveWriter.Field)] = [("authState", .object(authState))]
        if let provider = state.metadata[GTMAppAuthArchive.MetadataKey.serviceProvider] {
            rootFields.append(("serviceProvider", .object(archive.string(provider))))
        }
        if let user = state.user {
            if !user.subject.isEmpty { rootFields.append(("userID", .object(archive.string(user.subject)))) }
            if let email = user.email { rootFields.append(("userEmail", .object(archive.string(email)))) }
            if let verified = user.emailVerified {
                rootFields.append(("userEmailIsVerified", .object(archive.string(verified ? "true" : "false"))))
            }
        }
        let root = archive.object("GTMAppAuthFetcherAuthorization", rootFields)
        return archive.finish(root: root)
    }

    /// The discovery document AppAuth keeps inline (an `OIDServiceDiscovery` holding a dictionary).
    private static func discovery(_ server: AuthorizationServer, into archive: inout KeyedArchiveWriter) -> Int {
        var document: [String: JSONValue] = [
            "issuer": .string(server.issuer.absoluteString),
            "authorization_endpoint": .string(server.authorizationEndpoint.absoluteString),
            "token_endpoint": .string(server.tokenEndpoint.absoluteString),
        ]
        if let url = server.revocationEndpoint { document["revocation_endpoint"] = .string(url.absoluteString) }
        if let url = server.deviceAuthorizationEndpoint {
            document["device_authorization_endpoint"] = .string(url.absoluteString)
        }
        if let url = server.userinfoEndpoint { document["userinfo_endpoint"] = .string(url.absoluteString) }
        if server.sendsIssuerInAuthorizationResponse {
            document["authorization_response_iss_parameter_supported"] = .bool(true)
        }
        return archive.dictionary(document, className: "OIDServiceDiscovery")
    }
}
