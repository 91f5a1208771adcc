import Bearer
import BearerTestSupport
import Foundation
import Testing

@testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a client proves who it is at each endpoint: HTTP Basic in general, the body at Google, and
/// `client_id` in every device authorization request.
@Suite("Client authentication at the token and device endpoints")
struct ClientAuthenticationTests {
    private let deviceReply = RecordingTransport.Reply.json(
        200,
        #"{"device_code":"dev-code","user_code":"WDJB-MJHT","verification_url":"https://www.google.com/device","expires_in":1800,"interval":5}"#
    )

    private var googleDesktopClient: Client {
        Client(
            id: "123-abc.apps.googleusercontent.com",
            secret: ClientSecret("desktop-secret"),
            redirectURI: Fixtures.url("http://127.0.0.1/callback")
        )
    }

    @Test("The device authorization request carries client_id in its body beside HTTP Basic (RFC 8628 §3.1)")
    func deviceRequestAlwaysCarriesClientID() async throws {
        var server = Fixtures.server
        server.deviceAuthorizationEndpoint = Fixtures.url("https://auth.example.com/device")
        let transport = RecordingTransport(replies: [deviceReply])
        _ = try await AuthorizationServerClient(transport: transport).startDeviceAuthorization(
            at: server, as: Fixtures.confidentialClient, scopes: ["email"])
        let sent = try #require(await transport.requests.first)
        #expect(sent.formBody["client_id"] == Fixtures.confidentialClient.id)
        #expect(sent.formBody["client_secret"] == nil)
        #expect(sent.headerFields["Authorization"]?.hasPrefix("Basic ") == true)
    }

    @Test("At Google the device and token requests carry client_id and client_secret in the body, not Basic")
    func googleSendsCredentialsInBody() async throws {
        let clock = TestClock(Fixtures.epoch)
        let transport = RecordingTransport(replies: [
            deviceReply,
            .json(200, #"{"access_token":"at","token_type":"Bearer","expires_in":3600,"refresh_token":"rt"}"#),
            .json(200, #"{"access_token":"at-2","token_type":"Bearer","expires_in":3600}"#),
        ])
        let device = try await AuthorizationServerClient(transport: transport, clock: clock.wallClock)
            .startDeviceAuthorization(at: .google, as: googleDesktopClient, scopes: ["email"])
        let state = try await AuthorizationServerClient(transport: transport, clock: clock.wallClock).waitForApproval(
            of: device)
        _ = try await AuthorizationServerClient(transport: transport, clock: clock.wallClock).refresh(state)
        let sent = await transport.requests
        #expect(sent.count == 3)
        for request in sent {
            #expect(request.formBody["client_id"] == googleDesktopClient.id)
            #expect(request.formBody["client_secret"] == "desktop-secret")
            #expect(request.headerFields["Authorization"] == nil)
        }
        #expect(sent[1].formBody["grant_type"] == DeviceAuthorization.grantType)
        #expect(sent[2].formBody["grant_type"] == "refresh_token")
    }

    @Test("A Google token request describes its client authentication without the secret")
    func googleDescriptionRedactsSecret() {
        let request = TokenRequest.refresh(RefreshToken("r"), server: .google, client: googleDesktopClient)
        #expect(request.description.contains("client_secret_post"))
        #expect(!request.description.contains("desktop-secret"))
        #expect(request.transportRequest.formBody["client_secret"] == "desktop-secret")
    }
}
