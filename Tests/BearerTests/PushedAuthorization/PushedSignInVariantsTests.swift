import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore

/// Pushed authorization requests in the other sign-ins: a pending sign-in begun on one instance
/// and finished on another, and a DPoP sign-in, whose key the pushed request names.
@Suite("Pushed authorization requests: pending sign-ins and DPoP")
struct PushedSignInVariantsTests {
    @Test("A pending sign-in begun with a transport is pushed; its URL and expiry survive storage and finish anywhere")
    func pendingSignInPushed() async throws {
        let clock = TestClock(Fixtures.epoch)
        let transport = RecordingTransport(replies: [PushedAuthorizationTests.pushedAnswer])
        let pending = try await AuthSession.beginSignIn(
            to: PushedAuthorizationTests.server(), as: Fixtures.publicClient, scopes: ["email"], key: "user-42",
            transport: transport, clock: clock.wallClock)
        #expect(pending.pushedRequestExpiresAt == Fixtures.epoch.addingTimeInterval(90))
        let names = FormEncoding.decodePairs(pending.authorizationURL.query ?? "").map { $0.name }
        #expect(names == ["client_id", "request_uri"])
        #expect(try #require(await transport.requests.first).formBody["state"] == pending.state)

        let shared = InMemorySessionStore()
        try await shared.savePendingSignIn(pending)
        let stored = try JSONDecoder().decode(PendingSignIn.self, from: JSONEncoder().encode(pending))
        #expect(stored == pending)
        #expect(stored.authorizationURL == pending.authorizationURL)

        clock.advance(by: 30)
        let tokens = RecordingTransport(replies: [PushedAuthorizationTests.tokens])
        _ = try await AuthSession.finishSignIn(
            redirect: Fixtures.redirect(for: pending.request, query: "state=\(pending.state)&code=c-1"),
            pendingSignIns: shared, store: shared, key: "user-42", transport: tokens, clock: clock.wallClock)
        let exchange = try #require(await tokens.requests.first).formBody
        #expect(exchange["code_verifier"] != nil && exchange["redirect_uri"] != nil)
    }

    @Test("A pending sign-in without a transport is refused by a server that requires pushed requests")
    func pendingSignInWithoutTransportRefused() throws {
        let error = #expect(throws: BearerError.self) {
            try AuthSession.beginSignIn(
                to: PushedAuthorizationTests.server(requires: true), as: Fixtures.publicClient, scopes: ["email"],
                key: "user-42")
        }
        #expect(error?.kind == .invalidConfiguration)
    }

    @Test("A failed push fails beginSignIn; nothing to send the browser to")
    func pendingSignInPushFails() async throws {
        let transport = RecordingTransport(replies: [.response(status: 403, headers: [:], body: Data())])
        let error = await #expect(throws: BearerError.self) {
            _ = try await AuthSession.beginSignIn(
                to: PushedAuthorizationTests.server(), as: Fixtures.publicClient, scopes: ["email"], key: "user-42",
                transport: transport)
        }
        #expect(error?.kind == .invalidResponse)
    }

    @Test("A DPoP sign-in names its key in the pushed request (dpop_jkt, RFC 9449 §10.1) and sends no proof there")
    func dpopSignInNamesKey() async throws {
        var server = PushedAuthorizationTests.server()
        server.dpopSigningAlgorithms = ["ES256"]
        let transport = RecordingTransport(replies: [PushedAuthorizationTests.pushedAnswer])
        let agent = RecordingURLAgent(transport) { _ in [DPoPSessionTests.dpopTokens] }
        let session = try await AuthSession.signIn(
            to: server, as: Fixtures.publicClient, scopes: ["email"], using: agent, store: InMemorySessionStore(),
            transport: transport, clock: .fixed(Fixtures.epoch), configuration: DPoPSessionTests.configuration())
        let requests = await transport.requests
        let push = try #require(requests.first)
        let thumbprint = try #require(await session.state.dpopKey?.thumbprint)
        #expect(push.formBody["dpop_jkt"] == thumbprint)
        #expect(push.headerFields["DPoP"] == nil)
        #expect(requests.last?.headerFields["DPoP"] != nil, "the code exchange proves the key")
    }
}
