import Bearer
import Foundation
import Testing

@testable import BearerMigration

/// How a GTMAppAuth archive that names no issuer (no `issuer`, no discovery document) is assigned a server.
@Suite("GTMAppAuth archives without an issuer")
struct ArchiveServerTests {
    /// A minimal GTMAppAuth archive: a refresh token, a client ID and two endpoints, nothing else.
    private func archive(authorization: String, token: String) throws -> Data {
        var archive = KeyedArchiveWriter()
        let configuration = archive.object(
            "OIDServiceConfiguration",
            [
                ("authorizationEndpoint", .object(archive.url(try #require(URL(string: authorization))))),
                ("tokenEndpoint", .object(archive.url(try #require(URL(string: token))))),
            ]
        )
        let request = archive.object(
            "OIDTokenRequest",
            [("configuration", .object(configuration)), ("client_id", .object(archive.string("archive-client")))]
        )
        let response = archive.object(
            "OIDTokenResponse",
            [("request", .object(request)), ("refresh_token", .object(archive.string("archive-refresh")))]
        )
        let authState = archive.object("OIDAuthState", [("lastTokenResponse", .object(response))])
        let root = archive.object("GTMAppAuthFetcherAuthorization", [("authState", .object(authState))])
        return archive.finish(root: root)
    }

    @Test(
        "Endpoints on Google's hosts make a Google session with Google's other endpoints",
        arguments: [
            ("https://accounts.google.com/o/oauth2/v2/auth", "https://oauth2.googleapis.com/token"),
            ("https://id.example.com/authorize", "https://OAUTH2.GoogleAPIs.com/token"),
            ("https://accounts.google.com/o/oauth2/auth", "https://id.example.com/token"),
        ])
    func googleEndpoints(authorization: String, token: String) throws {
        let state = try GTMAppAuthArchive.decode(try archive(authorization: authorization, token: token))
        #expect(state.server.isGoogle)
        #expect(state.server.revocationEndpoint == AuthorizationServer.google.revocationEndpoint)
        #expect(state.server.userinfoEndpoint == AuthorizationServer.google.userinfoEndpoint)
        #expect(state.server.tokenEndpoint.absoluteString == token, "the archived endpoints are kept")
    }

    @Test(
        "A host that merely ends in googleapis.com is not Google",
        arguments: ["https://evilgoogleapis.com/token", "https://oauth2.evilgoogleapis.com/token"])
    func lookalikeTokenEndpoint(token: String) throws {
        let state = try GTMAppAuthArchive.decode(
            try archive(authorization: "https://login.evilgoogleapis.com/authorize", token: token))
        #expect(!state.server.isGoogle)
        #expect(state.server.issuer.absoluteString == "https://login.evilgoogleapis.com")
        #expect(state.server.revocationEndpoint == nil)
        #expect(state.server.deviceAuthorizationEndpoint == nil)
        #expect(state.server.userinfoEndpoint == nil)
    }
}
