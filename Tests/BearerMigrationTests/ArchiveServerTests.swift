import Bearer
import Foundation
import Testing

@_spi(CommandLine) @_spi(Migration) @testable import BearerCore
@testable import BearerMigration

/// Where a GTMAppAuth archive's issuer comes from: its configuration, its ID token, Google's
/// endpoints, or the caller; never a guess from the endpoints' origin.
@Suite("GTMAppAuth archives and their issuer")
struct ArchiveServerTests {
    /// A minimal GTMAppAuth archive: a refresh token, a client ID and two endpoints, plus an
    /// issuer in the service configuration and an ID token only when asked for.
    private func archive(
        authorization: String,
        token: String,
        configurationIssuer: String? = nil,
        idTokenIssuer: String? = nil
    ) throws -> Data {
        var archive = KeyedArchiveWriter()
        var fields: [(String, KeyedArchiveWriter.Field)] = [
            ("authorizationEndpoint", .object(archive.url(try #require(URL(string: authorization))))),
            ("tokenEndpoint", .object(archive.url(try #require(URL(string: token))))),
        ]
        if let configurationIssuer {
            fields.append(("issuer", .object(archive.url(try #require(URL(string: configurationIssuer))))))
        }
        let configuration = archive.object("OIDServiceConfiguration", fields)
        let request = archive.object(
            "OIDTokenRequest",
            [("configuration", .object(configuration)), ("client_id", .object(archive.string("archive-client")))]
        )
        var responseFields: [(String, KeyedArchiveWriter.Field)] = [
            ("request", .object(request)), ("refresh_token", .object(archive.string("archive-refresh"))),
        ]
        if let idTokenIssuer {
            responseFields.append(("id_token", .object(archive.string(idToken(issuer: idTokenIssuer)))))
        }
        let response = archive.object("OIDTokenResponse", responseFields)
        let authState = archive.object("OIDAuthState", [("lastTokenResponse", .object(response))])
        let root = archive.object("GTMAppAuthFetcherAuthorization", [("authState", .object(authState))])
        return archive.finish(root: root)
    }

    /// An unsigned JWT whose claims name `issuer`.
    private func idToken(issuer: String) -> String {
        let claims = #"{"iss":"\#(issuer)","sub":"42","aud":"archive-client","exp":1800003600,"iat":1800000000}"#
        func encode(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return encode(#"{"alg":"RS256"}"#) + "." + encode(claims) + ".c2ln"
    }

    private static let authorize = "https://auth.example.com/o/authorize/"
    private static let tokenURL = "https://auth.example.com/o/token/"

    @Test(
        "Endpoints on Google's hosts make a Google session with Google's other endpoints",
        arguments: [
            ("https://accounts.google.com/o/oauth2/v2/auth", "https://oauth2.googleapis.com/token"),
            ("https://ACCOUNTS.google.com/o/oauth2/auth", "https://OAUTH2.GoogleAPIs.com/token"),
        ])
    func googleEndpoints(authorization: String, token: String) throws {
        let state = try GTMAppAuthArchive.decode(try archive(authorization: authorization, token: token))
        #expect(state.server.isGoogle)
        #expect(state.server.revocationEndpoint == AuthorizationServer.google.revocationEndpoint)
        #expect(state.server.userinfoEndpoint == AuthorizationServer.google.userinfoEndpoint)
        #expect(state.server.tokenEndpoint.absoluteString == token, "the archived endpoints are kept")
    }

    @Test(
        "One endpoint on Google's hosts and one elsewhere is not Google, however the issuer is found",
        arguments: [
            ("https://accounts.google.com/o/oauth2/auth", "https://id.example.com/token"),
            ("https://id.example.com/authorize", "https://oauth2.googleapis.com/token"),
            ("https://accounts.google.com/o/oauth2/v2/auth", "https://evilgoogleapis.com/token"),
        ])
    func mixedEndpoints(authorization: String, token: String) throws {
        let bare = try archive(authorization: authorization, token: token)
        #expect(throws: MigrationError.self, "it names no issuer, and is not Google") {
            try GTMAppAuthArchive.decode(bare)
        }
        for data in [
            try archive(authorization: authorization, token: token, configurationIssuer: "https://accounts.google.com"),
            try archive(authorization: authorization, token: token, idTokenIssuer: "accounts.google.com"),
        ] {
            let error = #expect(throws: MigrationError.self) { try GTMAppAuthArchive.decode(data) }
            #expect(error?.kind == .malformedItem)
        }
        let google = try #require(URL(string: "https://accounts.google.com"))
        #expect(throws: MigrationError.self) { try GTMAppAuthArchive.decode(bare, issuer: google) }
        let other = try #require(URL(string: "https://id.example.com"))
        #expect(try !GTMAppAuthArchive.decode(bare, issuer: other).server.isGoogle)
    }

    @Test(
        "A host that merely ends in googleapis.com is not Google",
        arguments: ["https://evilgoogleapis.com/token", "https://oauth2.evilgoogleapis.com/token"])
    func lookalikeTokenEndpoint(token: String) throws {
        let data = try archive(authorization: "https://login.evilgoogleapis.com/authorize", token: token)
        #expect(throws: MigrationError.self, "it names no issuer, and is not Google") {
            try GTMAppAuthArchive.decode(data)
        }
        let issuer = try #require(URL(string: "https://login.evilgoogleapis.com"))
        let state = try GTMAppAuthArchive.decode(data, issuer: issuer)
        #expect(!state.server.isGoogle)
        #expect(state.server.issuer == issuer)
        #expect(state.server.revocationEndpoint == nil)
        #expect(state.server.deviceAuthorizationEndpoint == nil)
        #expect(state.server.userinfoEndpoint == nil)
    }

    @Test("Without an issuer in the configuration, the archived ID token's iss is used, not the endpoints' origin")
    func issuerFromIDToken() throws {
        let data = try archive(
            authorization: Self.authorize, token: Self.tokenURL, idTokenIssuer: "https://auth.example.com/o")
        #expect(try GTMAppAuthArchive.decode(data).server.issuer.absoluteString == "https://auth.example.com/o")
    }

    @Test("The configuration's issuer comes before the ID token's")
    func issuerFromConfiguration() throws {
        let data = try archive(
            authorization: Self.authorize,
            token: Self.tokenURL,
            configurationIssuer: "https://auth.example.com/o",
            idTokenIssuer: "https://other.example.com"
        )
        #expect(try GTMAppAuthArchive.decode(data).server.issuer.absoluteString == "https://auth.example.com/o")
    }

    @Test("An archive that names no issuer asks for one, and takes the one given")
    func missingIssuerIsAskedFor() throws {
        let data = try archive(authorization: Self.authorize, token: Self.tokenURL)
        let error = #expect(throws: MigrationError.self) { try GTMAppAuthArchive.decode(data) }
        #expect(error?.kind == .malformedItem)
        #expect(error?.reason.contains("--issuer") == true)
        let given = try #require(URL(string: "https://auth.example.com/o"))
        #expect(try GTMAppAuthArchive.decode(data, issuer: given).server.issuer == given)
    }

    @Test("An issuer given that differs from the archive's is refused, naming both")
    func conflictingIssuerIsRefused() throws {
        let data = try archive(
            authorization: Self.authorize, token: Self.tokenURL, configurationIssuer: "https://auth.example.com/o")
        let given = try #require(URL(string: "https://auth.example.com"))
        let error = #expect(throws: MigrationError.self) { try GTMAppAuthArchive.decode(data, issuer: given) }
        #expect(error?.kind == .conflictingSettings)
        #expect(error?.reason.contains("names the issuer https://auth.example.com/o") == true)
        #expect(error?.reason.contains("but https://auth.example.com was given") == true)
        let same = try #require(URL(string: "https://auth.example.com/o"))
        #expect(try GTMAppAuthArchive.decode(data, issuer: same).server.issuer == same)
    }
}
