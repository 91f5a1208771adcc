import Bearer
import Foundation
import Testing

@_spi(Testing) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// django-oauth-toolkit's ID tokens (RS256, signed with the key its run made) checked against the
/// JWK Set its discovery names, on sign-in and refresh; and refused when the keys served are not
/// the ones that signed.
@Suite(
    "End to end: ID-token signatures checked against the server's keys",
    .enabled(if: TestServer.isConfigured, TestServer.skipReason))
struct IDTokenSignatureEndToEndTests {
    /// The real server's transport, recording the paths it is asked for; with `keySet`, the key
    /// set's request is answered with it instead (another issuer's keys), everything else sent.
    actor KeySetTransport: HTTPTransport {
        let keySet: String?
        private(set) var paths: [String] = []
        /// The access token of the last token answer, to ask the server whether it still holds.
        private(set) var issuedAccessToken: AccessToken?

        init(answeringKeySetWith keySet: String? = nil) { self.keySet = keySet }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            paths.append(request.url.path)
            if let keySet, request.url.path.hasSuffix("/jwks.json") {
                return TransportResponse(status: 200, headerFields: [:], body: Data(keySet.utf8))
            }
            let response = try await TestServer.transport.send(request)
            if request.url.path.hasSuffix("/o/token"),
                case .object(let answer)? = try? JSONDecoder().decode(JSONValue.self, from: response.body),
                let token = answer["access_token"]?.stringValue
            {
                issuedAccessToken = AccessToken(token)
            }
            return response
        }
    }

    static var required: AuthSession.Configuration {
        var configuration = AuthSession.Configuration()
        configuration.idTokenSignatures = IDTokenSignatureSettings(
            requirement: .required, verifier: PlatformSignatureVerifier())
        return configuration
    }

    /// Signs alice in at the real server as `bearer-public` (whose token counts no other suite
    /// compares) with `transport` and checks that are required.
    static func signIn(with transport: KeySetTransport) async throws -> AuthState {
        let server = try await TestServer.discover()
        let request = try AuthorizationRequest(
            server: server, client: try TestServer.client("bearer-public"), scopes: ["openid", "email"])
        let redirect = try await Browser.authorize(request.url)
        let response = try AuthorizationResponse(redirect: redirect, for: request)
        let client = AuthorizationServerClient(transport: transport, clock: .system, configuration: Self.required)
        return try await client.exchange(response, for: request)
    }

    @Test("Discovery reads jwks_uri, and the server's RS256 ID token verifies against it on sign-in and refresh")
    func verifiesOnSignInAndRefresh() async throws {
        let server = try await TestServer.discover()
        #expect(server.jwksURI == (try TestServer.url("/o/.well-known/jwks.json")))

        let transport = KeySetTransport()
        let state = try await Self.signIn(with: transport)
        let idToken = try #require(state.idToken)
        #expect(try CompactJWS(idToken.value).header.algorithm == .rs256)
        #expect(await transport.paths.filter { $0.hasSuffix("/jwks.json") }.count == 1)

        let client = AuthorizationServerClient(transport: transport, clock: .system, configuration: Self.required)
        let refreshed = try await client.refresh(state)
        #expect(refreshed.idTokenRejection == nil)
        #expect(refreshed.idToken != nil)
        #expect(await transport.paths.filter { $0.hasSuffix("/jwks.json") }.count == 2)
    }

    @Test("Keys that did not sign the server's ID token refuse the sign-in, and its grant is revoked at the server")
    func otherKeysRefuseAndRevoke() async throws {
        let stranger = try await PlatformDPoPKeys().makeKey().record.publicKey
        let jwk =
            #"{"kty":"EC","crv":"P-256","use":"sig","kid":"stranger","x":"\#(Base64URL.encode(stranger.x))","#
            + #""y":"\#(Base64URL.encode(stranger.y))"}"#
        let transport = KeySetTransport(answeringKeySetWith: #"{"keys":[\#(jwk)]}"#)
        let error = await #expect(throws: BearerError.self) { try await Self.signIn(with: transport) }
        #expect(error?.kind == .invalidSignature)
        let paths = await transport.paths
        #expect(paths.filter { $0.hasSuffix("/revoke_token") }.count == 2, "\(paths)")
        let issued: AccessToken = try #require(await transport.issuedAccessToken)
        let (status, _, _) = try await TestServer.driveAbout(token: issued)
        #expect(status == 401)
    }
}
