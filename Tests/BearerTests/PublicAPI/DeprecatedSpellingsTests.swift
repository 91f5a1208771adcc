import Bearer
import BearerTestSupport
import BearerTesting
import Foundation
import Testing

@_spi(Bridge) @_spi(Migration) @testable import BearerCore

/// The 0.1.0 spellings kept deprecated for one minor release still do what they did. Each is
/// called through a protocol it satisfies, which compiles without the deprecation warning that a
/// direct call gives (the tests build with warnings as errors).
@Suite("0.1.0 spellings, deprecated")
struct DeprecatedSpellingsTests {
    @Test("AuthorizationServer.discover(issuer:using:) discovers through AuthorizationServerClient")
    func discoveryForwards() async throws {
        let issuer = "https://id.example.com/tenant"
        let transport = RecordingTransport(replies: [
            .json(
                200,
                #"{"issuer":"\#(issuer)","authorization_endpoint":"\#(issuer)/authorize","token_endpoint":"\#(issuer)/token","code_challenge_methods_supported":["S256"],"response_types_supported":["code"]}"#
            )
        ])
        let server = try await Self.discover(AuthorizationServer.self, Fixtures.url(issuer), transport)
        #expect(server.tokenEndpoint.absoluteString == "\(issuer)/token")
        let urls = await transport.requests.compactMap(\.url.absoluteString)
        #expect(urls == ["\(issuer)/.well-known/openid-configuration"])
    }

    @Test("SavedAccount.needsSignIn is signInRequired")
    func needsSignInForwards() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FileSessionStore(directory: folder)
        let live = AuthState(
            server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at"),
            refreshToken: RefreshToken("rt"))
        try await store.save(live, key: "live")
        try await store.save(live.markingSignInRequired(OAuthError(code: .invalidGrant)), key: "empty")
        let accounts = try await AuthSession.savedAccounts(in: store)
        #expect(accounts.map(\.key) == ["empty", "live"])
        #expect(accounts.map(Self.needsSignIn) == [true, false])
        #expect(accounts.map(Self.needsSignIn) == accounts.map(\.signInRequired))
    }

    private static func discover<Server: DiscoveryAsIn010>(
        _: Server.Type, _ issuer: URL, _ transport: RecordingTransport
    ) async throws -> Server {
        try await Server.discover(issuer: issuer, allowingInsecureLoopback: false, using: transport)
    }

    private static func needsSignIn<Account: AccountAsIn010>(_ account: Account) -> Bool {
        account.needsSignIn
    }
}

/// The 0.1.0 discovery spelling, which `AuthorizationServer` keeps deprecated.
private protocol DiscoveryAsIn010 {
    static func discover(
        issuer: URL, allowingInsecureLoopback: Bool, using transport: some HTTPTransport
    ) async throws -> Self
}

extension AuthorizationServer: DiscoveryAsIn010 {}

/// The 0.1.0 name of `SavedAccount.signInRequired`.
private protocol AccountAsIn010 {
    var needsSignIn: Bool { get }
}

extension SavedAccount: AccountAsIn010 {}
