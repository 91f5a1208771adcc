import Bearer
import BearerTestSupport
import Foundation
import Testing

/// A web sign-in begun by one instance and finished by another, through a shared store.
@Suite("Pending sign-ins: begun anywhere, finished once, anywhere")
struct PendingSignInTests {
    private static func begin(clock: TestClock) throws -> PendingSignIn {
        try AuthSession.beginSignIn(
            to: Fixtures.server, as: Fixtures.publicClient, scopes: ["openid", "email"], key: "user-42",
            tokenParameters: ["resource": "https://api.example.com"], clock: clock.wallClock)
    }

    private static func callback(_ pending: PendingSignIn, code: String = "c-1") -> URL {
        Fixtures.redirect(for: pending.request, query: "state=\(pending.state)&code=\(code)")
    }

    @Test("One instance begins and keeps it, another finishes it from the callback alone and saves the session")
    func finishesOnAnotherInstance() async throws {
        let clock = TestClock(Fixtures.epoch)
        let shared = InMemorySessionStore()
        let pending = try Self.begin(clock: clock)
        #expect(pending.authorizationURL.absoluteString.contains("state=\(pending.state)"))
        #expect(pending.createdAt == Fixtures.epoch)
        try await shared.savePendingSignIn(pending)

        clock.advance(by: 30)
        let transport = RecordingTransport(replies: [SignInTests.tokens])
        let session = try await AuthSession.finishSignIn(
            redirect: Self.callback(pending), pendingSignIns: shared, store: shared, key: "user-42",
            transport: transport, clock: clock.wallClock)
        #expect(try await shared.load(key: "user-42") == (await session.state))
        let exchange = try #require(await transport.requests.first).formBody
        #expect(exchange["code"] == "c-1")
        #expect(exchange["code_verifier"] != nil)
        #expect(exchange["resource"] == "https://api.example.com", "the token parameters travel with it")
    }

    @Test("A replayed callback, or one no instance began, is refused before anything is sent")
    func replayRefused() async throws {
        let clock = TestClock(Fixtures.epoch)
        let shared = InMemorySessionStore()
        let pending = try Self.begin(clock: clock)
        try await shared.savePendingSignIn(pending)
        let transport = RecordingTransport(replies: [SignInTests.tokens])
        _ = try await AuthSession.finishSignIn(
            redirect: Self.callback(pending), pendingSignIns: shared, store: shared, key: "user-42",
            transport: transport, clock: clock.wallClock)
        for redirect in [Self.callback(pending), Fixtures.url("com.example.app:/oauth2callback?code=c-1&state=forged")]
        {
            let error = await #expect(throws: BearerError.self) {
                _ = try await AuthSession.finishSignIn(
                    redirect: redirect, pendingSignIns: shared, store: shared, key: "user-42",
                    transport: transport, clock: clock.wallClock)
            }
            #expect(error?.kind == .invalidRedirect)
        }
        #expect(await transport.requests.count == 1, "only the first finish reached the server")
    }

    @Test("A callback finished for another key than the one it began for is refused before anything is sent")
    func otherKeyRefused() async throws {
        let clock = TestClock(Fixtures.epoch)
        let shared = InMemorySessionStore()
        // Begun by an attacker for their own account, then sent to user-7, whose handler finishes it.
        let pending = try Self.begin(clock: clock)
        try await shared.savePendingSignIn(pending)
        let transport = RecordingTransport(replies: [SignInTests.tokens])
        let error = await #expect(throws: BearerError.self) {
            _ = try await AuthSession.finishSignIn(
                redirect: Self.callback(pending), pendingSignIns: shared, store: shared, key: "user-7",
                transport: transport, clock: clock.wallClock)
        }
        #expect(error?.kind == .invalidRedirect)
        #expect(await transport.requests.isEmpty)
        #expect(try await shared.load(key: "user-7") == nil)
    }

    @Test("A pending sign-in older than its lifetime is refused before anything is sent")
    func expiredRefused() async throws {
        let clock = TestClock(Fixtures.epoch)
        let shared = InMemorySessionStore()
        let pending = try Self.begin(clock: clock)
        try await shared.savePendingSignIn(pending)
        clock.advance(by: 601)
        let transport = RecordingTransport(replies: [SignInTests.tokens])
        let error = await #expect(throws: BearerError.self) {
            _ = try await AuthSession.finishSignIn(
                redirect: Self.callback(pending), pendingSignIns: shared, store: shared, key: "user-42",
                transport: transport, clock: clock.wallClock)
        }
        #expect(error?.kind == .timedOut)
        #expect(await transport.requests.isEmpty)
        #expect(try await shared.load(key: "user-42") == nil)
    }

    @Test("It survives encoding with its verifier, prints none, and a tampered record is refused")
    func encodingAndChecks() throws {
        let pending = try Self.begin(clock: TestClock(Fixtures.epoch))
        let encoded = try pending.encoded()
        #expect(try PendingSignIn(encoded: encoded) == pending)
        let text = String(decoding: encoded, as: UTF8.self)
        let verifier = try #require(
            text.split(separator: "\"").drop { $0 != "verifier" }.dropFirst(2).first.map(String.init))
        #expect(!"\(pending)".contains(verifier), "the description shows no verifier")
        #expect(!String(reflecting: pending).contains(verifier))
        for tampered in [
            text.replacingOccurrences(
                of: "https://auth.example.com/authorize", with: "http://auth.example.com/authorize"),
            text.replacingOccurrences(of: "\"email\"", with: "\"em ail\""),
            text.replacingOccurrences(of: pending.state, with: "short"),
            text.replacingOccurrences(of: verifier, with: "too-short"),
        ] {
            #expect(throws: BearerError.self) { try PendingSignIn(encoded: Data(tampered.utf8)) }
        }
    }
}
