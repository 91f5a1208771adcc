import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore

/// What a session keeps of a refresh answer: the tokens always, the ID token only when it passes,
/// the refresh token's expiry, and unknown fields within limits.
@Suite("AuthState: what a refresh answer leaves in the session")
struct RefreshAnswerTests {
    private let request: AuthorizationRequest
    private let state: AuthState

    init() throws {
        request = try Fixtures.request()
        state = AuthState(
            server: Fixtures.server,
            client: Fixtures.publicClient,
            accessToken: AccessToken("at-1"),
            accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(3600),
            refreshToken: RefreshToken("rt-1"),
            idToken: try IDToken(Fixtures.idToken(for: request)),
            grantedScopes: ["openid", "email"],
            user: AuthState.User(subject: "user-1", email: "user@example.com")
        )
    }

    private func refreshReply(idToken: String? = nil, extra: String = "") -> RecordingTransport.Reply {
        let idField = idToken.map { #","id_token":"\#($0)""# } ?? ""
        return .json(
            200,
            #"{"access_token":"at-2","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-2"\#(idField)\#(extra)}"#
        )
    }

    @Test("A refreshed ID token from a server clock 20 minutes ahead is dropped and reported; the new tokens are kept")
    func idTokenFromTheFutureKeepsRotatedRefreshToken() async throws {
        let now = Fixtures.epoch.addingTimeInterval(600)
        let ahead = Fixtures.idToken(for: request, issuedAt: now.addingTimeInterval(1200))
        let transport = RecordingTransport(replies: [refreshReply(idToken: ahead)])
        let refreshed = try await AuthorizationServerClient(transport: transport, clock: .fixed(now)).refresh(state)
        #expect(refreshed.refreshToken?.value == "rt-2")
        #expect(refreshed.accessToken?.value == "at-2")
        #expect(refreshed.idTokenRejection?.kind == .invalidIDToken)
        #expect(refreshed.idToken == state.idToken, "the old ID token has not expired, so it stays")
        #expect(!refreshed.signInRequired)
        let restored = try AuthState(encoded: refreshed.encoded())
        #expect(restored == refreshed)
        #expect(restored.idTokenRejection?.reason == refreshed.idTokenRejection?.reason)
    }

    @Test("A refreshed ID token for another user marks the session but keeps the new tokens for revocation")
    func otherUserKeepsTokensAndNeedsSignIn() throws {
        let other = try IDToken(Fixtures.idToken(for: request, subject: "someone-else"))
        let response = TokenResponse(
            accessToken: AccessToken("at-2"), refreshToken: RefreshToken("rt-2"), idToken: other)
        let refreshed = state.applying(refresh: response, clock: .fixed(Fixtures.epoch))
        #expect(refreshed.signInRequired)
        #expect(refreshed.signInRequiredError?.code == .loginRequired)
        #expect(refreshed.signInRequiredError?.signInRequired == true)
        #expect(refreshed.refreshToken?.value == "rt-2")
        #expect(refreshed.accessToken?.value == "at-2")
        #expect(refreshed.user == state.user)
        #expect(refreshed.idToken?.claims.subject != "someone-else")
    }

    @Test("A valid refreshed ID token replaces the old one and clears an earlier rejection")
    func validIDTokenReplaces() throws {
        var rejected = state
        rejected.idTokenRejection = BearerError.invalidIDToken("earlier")
        let later = Fixtures.epoch.addingTimeInterval(4000)
        let fresh = try IDToken(Fixtures.idToken(for: request, issuedAt: later))
        let refreshed = rejected.applying(
            refresh: TokenResponse(accessToken: AccessToken("at-2"), idToken: fresh), clock: .fixed(later))
        #expect(refreshed.idToken == fresh)
        #expect(refreshed.idTokenRejection == nil)
    }

    @Test("A refresh answer without an ID token drops an expired one and keeps one still valid")
    func answerWithoutIDTokenDropsExpiredOne() {
        let response = TokenResponse(accessToken: AccessToken("at-2"))
        let expiry = Fixtures.epoch.addingTimeInterval(3600)
        #expect(state.applying(refresh: response, clock: .fixed(expiry)).idToken == nil)
        #expect(
            state.applying(refresh: response, clock: .fixed(expiry.addingTimeInterval(-1))).idToken == state.idToken)
        #expect(state.applying(refresh: response, clock: .fixed(expiry)).user == state.user)
    }

    @Test("refresh_token_expires_in becomes an absolute expiry that survives refreshes and saving")
    func refreshTokenExpiryIsKept() async throws {
        let transport = RecordingTransport(replies: [
            .json(200, #"{"access_token":"at-2","token_type":"Bearer","refresh_token_expires_in":"7200"}"#),
            .json(200, #"{"access_token":"at-3","token_type":"Bearer","expires_in":3600}"#),
        ])
        let first = try await AuthorizationServerClient(transport: transport, clock: .fixed(Fixtures.epoch)).refresh(
            state)
        #expect(first.refreshTokenExpiresAt == Fixtures.epoch.addingTimeInterval(7200))
        let second = try await AuthorizationServerClient(
            transport: transport, clock: .fixed(Fixtures.epoch.addingTimeInterval(60))
        ).refresh(first)
        #expect(second.refreshTokenExpiresAt == Fixtures.epoch.addingTimeInterval(7200))
        #expect(try AuthState(encoded: second.encoded()).refreshTokenExpiresAt == second.refreshTokenExpiresAt)
    }

    @Test("Once the refresh token has expired, refreshing sends nothing and asks for a new sign-in")
    func expiredRefreshTokenSendsNothing() async throws {
        var limited = state
        limited.refreshTokenExpiresAt = Fixtures.epoch.addingTimeInterval(7200)
        let transport = RecordingTransport()
        let error = await #expect(throws: OAuthError.self) {
            try await AuthorizationServerClient(
                transport: transport, clock: .fixed(Fixtures.epoch.addingTimeInterval(7200))
            ).refresh(limited)
        }
        #expect(error?.code == .invalidGrant)
        #expect(error?.signInRequired == true)
        #expect(await transport.requests.isEmpty)
    }

    @Test("A field nested 510 levels deep is dropped; the rotated refresh token is kept and the session saves")
    func deeplyNestedFieldIsDropped() async throws {
        let deep = String(repeating: #"{"a":"#, count: 510) + "1" + String(repeating: "}", count: 510)
        let transport = RecordingTransport(replies: [refreshReply(extra: #","deep":\#(deep),"kept":"yes""#)])
        let refreshed = try await AuthorizationServerClient(transport: transport, clock: .fixed(Fixtures.epoch))
            .refresh(state)
        #expect(refreshed.refreshToken?.value == "rt-2")
        #expect(refreshed.additionalParameters == ["kept": "yes"])
        let restored = try AuthState(encoded: refreshed.encoded())
        #expect(restored == refreshed)
    }

    @Test("Unknown fields are kept in name order up to the byte limit; the rest are dropped")
    func unknownFieldsAreBoundedInBytes() throws {
        let big = String(repeating: "x", count: TokenResponse.maximumKeptBytes / 2)
        let response = try TokenResponse(json: [
            "access_token": "at", "token_type": "Bearer",
            "a": .string(big), "b": .string(big), "c": "small",
            "nested": .array([.object(["k": .array([1, 2, 3])])]),
        ])
        #expect(Set(response.additionalParameters.keys) == ["a", "c", "nested"])
        let limit = TokenResponse.maximumKeptDepth
        var atLimit: JSONValue = 1
        for _ in 1..<limit { atLimit = .array([atLimit]) }
        let deeper: JSONValue = .array([atLimit])
        let nesting = try TokenResponse(json: [
            "access_token": "at", "token_type": "Bearer", "ok": atLimit, "no": deeper,
        ])
        #expect(Array(nesting.additionalParameters.keys) == ["ok"])
    }

    @Test("A session that JSON cannot hold fails to encode with a BearerError, never a bare EncodingError")
    func encodingFailureIsReadable() {
        var broken = state
        broken.accessTokenLifetime = .nan
        let error = #expect(throws: BearerError.self) { try broken.encoded() }
        #expect(error?.kind == .storageFailure)
        #expect(error?.reason.contains("accessTokenLifetime") == true)
        var odd = state
        odd.refreshTokenExpiresAt = nil
        #expect(throws: Never.self) { try odd.encoded() }
    }
}
