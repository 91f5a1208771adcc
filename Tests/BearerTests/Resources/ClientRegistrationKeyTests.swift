import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Testing) @testable import BearerCore

/// Dynamic client registration (RFC 7591) of a `private_key_jwt` client: the configured key's
/// public half is registered as `jwks`, and the answer must grant the method asked for.
@Suite("Protected resources: registering a client key")
struct ClientRegistrationKeyTests {
    func register(_ replies: [RecordingTransport.Reply], key: any DPoPKey) async throws -> (Client, RecordingTransport)
    {
        let transport = RecordingTransport(replies: replies)
        let client = try await AuthorizationServerClient(
            transport: transport, clock: .system, dpop: nil, clientKeys: StaticClientKey(key)
        ).register("Example Agent", redirectURI: ClientRegistrationTests.loopback, at: ClientRegistrationTests.server)
        return (client, transport)
    }

    @Test("With client keys, the registration asks for private_key_jwt and sends the key's public JWK Set")
    func registersTheKey() async throws {
        let key = try await PlatformDPoPKeys().makeKey()
        let answer = ResourceWorld.registered(extra: #","token_endpoint_auth_method":"private_key_jwt""#)
        let (client, transport) = try await register([answer], key: key)
        #expect(client.id == "dyn-1")
        #expect(client.authentication == .privateKeyJWT)
        #expect(client.secret == nil)
        let body = try ResourceWorld.jsonBody(try #require(await transport.requests.first))
        #expect(body["token_endpoint_auth_method"] == "private_key_jwt")
        guard case .object(let set)? = body["jwks"], case .array(let keys)? = set["keys"], keys.count == 1,
            case .object(let jwk) = keys[0]
        else {
            Issue.record("The registration has no jwks with one key: \(String(describing: body["jwks"]))")
            return
        }
        let publicKey = key.record.publicKey
        #expect(jwk["kty"] == "EC")
        #expect(jwk["crv"] == "P-256")
        #expect(jwk["x"] == .string(Base64URL.encode(publicKey.x)))
        #expect(jwk["y"] == .string(Base64URL.encode(publicKey.y)))
        #expect(jwk["kid"] == .string(publicKey.thumbprint))
        #expect(jwk["alg"] == "ES256")
        #expect(jwk["use"] == "sig")
        #expect(jwk["d"] == nil)
        #expect(body["client_secret"] == nil)
    }

    @Test("An answer that names no method and issues no secret is the private_key_jwt client asked for")
    func answerWithoutMethod() async throws {
        let (client, _) = try await register([ResourceWorld.registered()], key: try await PlatformDPoPKeys().makeKey())
        #expect(client.authentication == .privateKeyJWT)
    }

    @Test(
        "An answer that registered another method is registrationFailed, and names what the server chose",
        arguments: [
            #","token_endpoint_auth_method":"client_secret_basic","client_secret":"issued-by-test""#,
            #","client_secret":"issued-by-test""#,
            #","token_endpoint_auth_method":"none""#,
        ])
    func otherMethodRefused(extra: String) async throws {
        let key = try await PlatformDPoPKeys().makeKey()
        let error = await #expect(throws: BearerError.self) {
            try await register([ResourceWorld.registered(extra: extra)], key: key)
        }
        #expect(error?.kind == .registrationFailed)
        #expect(error?.reason.contains("asked for private_key_jwt") == true)
        #expect(error?.reason.contains("issued-by-test") == false)
    }

    @Test("A key source that has no key stops the registration before anything is sent")
    func keySourceFailure() async throws {
        struct NoKey: ClientKeySource {
            func key(for client: Client, at server: AuthorizationServer) async throws -> any DPoPKey {
                #expect(client.id.isEmpty)
                #expect(client.authentication == .privateKeyJWT)
                throw BearerError.proofOfPossession("The test's key source has no key.")
            }
        }
        let transport = RecordingTransport(replies: [ResourceWorld.registered()])
        await #expect(throws: BearerError.self) {
            try await AuthorizationServerClient(transport: transport, clock: .system, dpop: nil, clientKeys: NoKey())
                .register(
                    "Example Agent", redirectURI: ClientRegistrationTests.loopback, at: ClientRegistrationTests.server)
        }
        #expect(await transport.requests.isEmpty)
    }
}
