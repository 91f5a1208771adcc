import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What proves that an incremental grant is the signed-in user's, and what happens to a grant
/// that is refused.
@Suite("An incremental grant merges only when it proves the same user; a refused one is revoked")
struct SameUserTests {
    typealias User = AuthState.User

    static func state(user: User?, requested: [String] = ["email"], idToken: Bool = false) -> AuthState {
        var state = AuthState(
            server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at"),
            requestedScopes: requested, user: user)
        if idToken, let request = try? Fixtures.request(), let token = try? IDToken(Fixtures.idToken(for: request)) {
            state.idToken = token
        }
        return state
    }

    /// (session's user, grant, whether they merge)
    static let cases: [(String, User?, AuthState, Bool)] = [
        (
            "same subject", User(subject: "u1"), state(user: User(subject: "u1"), requested: ["openid"], idToken: true),
            true
        ),
        (
            "other subject", User(subject: "u1"),
            state(user: User(subject: "u2"), requested: ["openid"], idToken: true), false
        ),
        ("grant without subject", User(subject: "u1"), state(user: nil), false),
        ("grant with an empty subject", User(subject: "u1"), state(user: User(subject: "")), false),
        ("openid asked, no ID token", nil, state(user: nil, requested: ["openid", "email"]), false),
        ("no OpenID Connect on either side", nil, state(user: nil), true),
        (
            "session without subject, same email", User(subject: "", email: "a@x"),
            state(user: User(subject: "u", email: "a@x"), requested: ["openid"], idToken: true), true
        ),
        (
            "session without subject, other email", User(subject: "", email: "a@x"),
            state(user: User(subject: "u", email: "b@x"), requested: ["openid"], idToken: true), false
        ),
    ]

    @Test("The same-user rule over every combination of subjects", arguments: cases.map(\.0))
    func rule(name: String) throws {
        let (_, mine, grant, merges) = try #require(Self.cases.first { $0.0 == name })
        let session = Self.state(user: mine)
        if merges {
            #expect(throws: Never.self) { try session.merging(additionalGrant: grant) }
        } else {
            let error = #expect(throws: BearerError.self) { try session.merging(additionalGrant: grant) }
            #expect(error?.kind == .userMismatch)
        }
    }

    @Test(
        "addScopes refused because another account answered revokes that account's new grant",
        arguments: [
            #"{"access_token":"bob-at","token_type":"Bearer","refresh_token":"bob-rt","scope":"openid email drive"}"#,
            #"{"access_token":"bob-at","token_type":"Bearer","refresh_token":"bob-rt","scope":"openid email drive","id_token":"OTHER"}"#,
        ])
    func refusedGrantIsRevoked(body: String) async throws {
        let store = InMemorySessionStore()
        let transport = RecordingTransport(replies: [])
        let alice = AuthState(
            server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("alice-at"),
            accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(3600), refreshToken: RefreshToken("alice-rt"),
            grantedScopes: ["openid", "email"], requestedScopes: ["openid", "email"], user: User(subject: "alice"))
        let session = try await AuthSession.save(
            alice, to: store, key: "main", transport: transport, clock: .fixed(Fixtures.epoch))
        let agent = ScriptedAgent { request in
            Fixtures.redirect(for: request, query: "state=\(request.state)&code=c")
        }
        let request = try #require(try await session.authorizationRequest(adding: ["drive"]))
        let bob = Fixtures.idToken(for: request, subject: "bob")
        await transport.enqueue(.json(200, body.replacingOccurrences(of: "OTHER", with: bob)))
        await transport.enqueue(.json(200, "{}"))
        await transport.enqueue(.json(200, "{}"))
        let response = try AuthorizationResponse(
            redirect: Fixtures.redirect(for: request, query: "state=\(request.state)&code=c"), for: request)
        _ = agent
        let error = await #expect(throws: BearerError.self) {
            try await session.completeAddingScopes(response, for: request)
        }
        #expect(error?.kind == .userMismatch)
        let revoked = await transport.requests(toPathEnding: "/revoke").map { $0.formBody["token"] }
        #expect(revoked == ["bob-rt", "bob-at"])
        #expect(try await store.load(key: "main") == alice)
    }
}
