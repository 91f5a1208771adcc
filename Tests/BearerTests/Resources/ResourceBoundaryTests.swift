import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(CommandLine) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a resource session's tokens may go besides the resource (nowhere), which of a resource's
/// sessions a restore finds, and what becomes of the session of a server the resource left.
@Suite("Protected resources: boundaries")
struct ResourceBoundaryTests {
    static let userInfo = "https://as.example.com/userinfo"

    /// A server document that also lists `openid`, a UserInfo endpoint and a revocation endpoint.
    static func openIDServer(issuer: String = ResourceWorld.issuer, revocation: Bool = true) -> String {
        let document = ResourceWorld.serverDocument(issuer: issuer, scopes: ["openid", "tools.read"])
        return String(document.dropLast()) + #","userinfo_endpoint":"\#(issuer)/userinfo""#
            + (revocation ? #","revocation_endpoint":"\#(issuer)/revoke"}"# : "}")
    }

    @Test("A sign-in granted openid without an ID token never sends the resource's token to UserInfo")
    func noUserInfoAfterSignIn() async throws {
        let transport = await ResourceWorld.transport(
            probe: ResourceWorld.unauthorized(scope: "openid tools.read"), serverDocument: Self.openIDServer(),
            tokens: [ResourceWorld.tokens(scope: "openid tools.read")])
        await transport.route(Self.userInfo, .json(200, #"{"sub":"u1"}"#))
        let session = try await ResourceWorld.signIn(transport, store: InMemorySessionStore())
        #expect(await session.state.hasGranted("openid"))
        #expect(await transport.requests(to: Self.userInfo).isEmpty)

        let refusal = await #expect(throws: BearerError.self) { try await session.userInfo() }
        #expect(refusal?.kind == .resourceMismatch)
        #expect(await transport.requests(to: Self.userInfo).isEmpty, "nothing was sent to UserInfo")
    }

    @Test("A step-up with an agent redirecting elsewhere than the registered URI is refused before it is shown")
    func stepUpWithAnotherRedirect() async throws {
        let transport = await ResourceWorld.transport()
        let session = try await ResourceWorld.signIn(transport, store: InMemorySessionStore())
        let elsewhere = RedirectingAgent(redirectURI: "http://127.0.0.1:40000/callback")
        let refusal = await #expect(throws: BearerError.self) {
            try await session.addScopes(["tools.write"], using: elsewhere)
        }
        #expect(refusal?.kind == .invalidConfiguration)
        #expect(elsewhere.presented.isEmpty, "nothing was shown")
    }

    @Test("A resource that moved: the old server's session is revoked and removed, the new one restored")
    func movedResourceRetiresOldSession() async throws {
        let store = InMemorySessionStore()
        let old = await ResourceWorld.transport(serverDocument: Self.openIDServer())
        await old.route("https://as.example.com/revoke", .json(200, "{}"))
        let first = try await ResourceWorld.signIn(old, store: store)

        let moved = await movedTransport()
        let second = try await ResourceWorld.signIn(moved, store: store)
        #expect(first.key != second.key)
        #expect(await moved.requests(to: "https://as.example.com/revoke").count >= 1, "the old grant was revoked")
        let keys = try await store.keys()
        #expect(!keys.contains(first.key) && keys.contains(second.key))
        let restored = try await AuthSession.restore(
            resource: Fixtures.url(ResourceWorld.resource), from: store, transport: moved,
            clock: .fixed(Fixtures.epoch))
        #expect(restored?.key == second.key)
    }

    @Test("A moved resource's old session that cannot be revoked is kept under a retired key, out of the way")
    func unrevocableSessionRetired() async throws {
        let store = InMemorySessionStore()
        let old = await ResourceWorld.transport(serverDocument: Self.openIDServer(revocation: false))
        let first = try await ResourceWorld.signIn(old, store: store)
        let kept = try #require(try await store.load(key: first.key))

        let moved = await movedTransport()
        let second = try await ResourceWorld.signIn(moved, store: store)
        let retired = ResourceSessionKeys.retired(first.key)
        #expect(try await store.load(key: retired) == kept, "its tokens are kept")
        #expect(try await !store.keys().contains(first.key))
        let restored = try await AuthSession.restore(
            resource: Fixtures.url(ResourceWorld.resource), from: store, transport: moved, clock: .fixed(Fixtures.epoch)
        )
        #expect(restored?.key == second.key)
    }

    @Test("Only keys of the resource itself are its sessions: a longer key with the same start is another's")
    func exactSessionKeys() async throws {
        let resource = try ProtectedResource(Fixtures.url(ResourceWorld.resource))
        let key = ResourceSessionKeys.session(for: resource, issuer: Fixtures.url(ResourceWorld.issuer))
        #expect(ResourceSessionKeys.isSession(key, of: resource))
        #expect(!ResourceSessionKeys.isSession(key + "0", of: resource))
        #expect(!ResourceSessionKeys.isSession(String(key.dropLast()) + "g", of: resource))
        #expect(!ResourceSessionKeys.isSession(ResourceSessionKeys.retired(key), of: resource))
        #expect(try FileSessionStore.checkKey(key) == ())
    }

    /// The same resource, now naming `https://as2.example.com`.
    private func movedTransport() async -> RoutedTransport {
        let transport = await ResourceWorld.transport(
            resourceDocument: ResourceWorld.resourceDocument(servers: ["https://as2.example.com"]))
        await transport.route(
            "https://as2.example.com/.well-known/oauth-authorization-server",
            .json(200, ResourceWorld.serverDocument(issuer: "https://as2.example.com")))
        await transport.route("https://as2.example.com/register", ResourceWorld.registered("dyn-2"))
        await transport.route("https://as2.example.com/token", ResourceWorld.tokens("at-9", refresh: "rt-9"))
        await transport.route("https://as.example.com/revoke", .json(200, "{}"))
        return transport
    }
}
