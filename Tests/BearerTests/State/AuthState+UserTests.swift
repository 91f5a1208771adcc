import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore

@Suite("The signed-in user's profile")
struct UserProfileTests {
    @Test("The profile an app shows comes from the ID token, and any other claim is readable")
    func profileFromIDToken() async throws {
        // Without openid no nonce is sent, so a token built ahead of the sign-in carries none.
        let request = try Fixtures.request(scopes: ["email", "profile"])
        let idToken = Fixtures.idToken(
            for: request,
            extra: [
                "name": "Ada Lovelace", "given_name": "Ada", "family_name": "Lovelace",
                "picture": "https://lh3.googleusercontent.com/a/ACg8ocK=s96-c", "hd": "example.com",
                "locale": "en-GB",
            ])
        let transport = RecordingTransport(replies: [
            .json(200, #"{"access_token":"at","token_type":"Bearer","expires_in":3600,"id_token":"\#(idToken)"}"#)
        ])
        let agent = ScriptedAgent { Fixtures.redirect(for: $0, query: "state=\($0.state)&code=c") }
        let session = try await AuthSession.signIn(
            to: Fixtures.server, as: Fixtures.publicClient, scopes: ["email", "profile"], using: agent,
            store: InMemorySessionStore(), transport: transport, clock: .fixed(Fixtures.epoch))
        let user = try #require(await session.user)
        #expect(user.name == "Ada Lovelace")
        #expect(user.givenName == "Ada")
        #expect(user.familyName == "Lovelace")
        #expect(user.hostedDomain == "example.com")
        #expect(user.picture?.absoluteString == "https://lh3.googleusercontent.com/a/ACg8ocK=s96-c")
        #expect(user.pictureURL(size: 100)?.absoluteString == "https://lh3.googleusercontent.com/a/ACg8ocK=c-s100")
        #expect(await session.state.idToken?.claims["locale"]?.stringValue == "en-GB")
        #expect(await session.state.idToken?.claims["no-such-claim"] == nil)
    }

    @Test("A profile survives the session's envelope, and an old envelope without it still reads")
    func profileIsSaved() throws {
        var state = AuthState(server: Fixtures.server, client: Fixtures.publicClient)
        state.user = AuthState.User(
            subject: "u", givenName: "Ada", familyName: "Lovelace",
            picture: Fixtures.url("https://example.com/ada.png"), hostedDomain: "example.com")
        #expect(try AuthState(encoded: try state.encoded()).user == state.user)
        state.user = AuthState.User(subject: "u", email: "ada@example.com")
        let old = try state.encoded()
        #expect(!String(decoding: old, as: UTF8.self).contains("givenName"), "absent fields are not written")
        #expect(try AuthState(encoded: old).user?.givenName == nil)
    }

    @Test("A picture that is not https is not kept")
    func pictureMustBeHTTPS() throws {
        let request = try Fixtures.request()
        for picture in ["http://example.com/a.png", "javascript:alert(1)", "not a url", "https:///path"] {
            let token = try IDToken(Fixtures.idToken(for: request, extra: ["picture": .string(picture)]))
            #expect(token.claims.picture == nil, "\(picture)")
        }
    }

    @Test(
        "Google's picture addresses take the size asked for, in both forms; other servers' come back as they are",
        arguments: [
            ("https://lh3.googleusercontent.com/a/ACg8ocK=s96-c", "https://lh3.googleusercontent.com/a/ACg8ocK=c-s20"),
            (
                "https://lh3.googleusercontent.com/a-/AAuE7mC0Lh4F4",
                "https://lh3.googleusercontent.com/a-/AAuE7mC0Lh4F4=c-s20"
            ),
            (
                "https://lh3.googleusercontent.com/a/X=s120-c-fSoften=1,50,0",
                "https://lh3.googleusercontent.com/a/X=fSoften=1,50,0-c-s20"
            ),
            (
                "https://lh3.googleusercontent.com/-ukE/AAAAAAAAAAI/AAAAAAAAAAA/ACHi3r.CMID/s64-c/photo.jpg",
                "https://lh3.googleusercontent.com/-ukE/AAAAAAAAAAI/AAAAAAAAAAA/ACHi3r.CMID/s20-c/photo.jpg"
            ),
            (
                "https://lh3.googleusercontent.com/-ukE/AAAAAAAAAAI/AAAAAAAAAAA/ACHi3r.CMID/photo.jpg",
                "https://lh3.googleusercontent.com/-ukE/AAAAAAAAAAI/AAAAAAAAAAA/ACHi3r.CMID/s20-c/photo.jpg"
            ),
            (
                "https://lh3.googleusercontent.com/-ukE/AAAAAAAAAAI/AAAAAAAAAAA/ACHi3r.CMID/s64/photo.jpg",
                "https://lh3.googleusercontent.com/-ukE/AAAAAAAAAAI/AAAAAAAAAAA/ACHi3r.CMID/s20-c/photo.jpg"
            ),
            ("https://avatars.example.com/u/1.png", "https://avatars.example.com/u/1.png"),
        ])
    func sizedPicture(picture: String, sized: String) {
        let user = AuthState.User(subject: "u", picture: Fixtures.url(picture))
        #expect(user.pictureURL(size: 20)?.absoluteString == sized)
    }

    @Test("No picture gives no address at any size")
    func noPicture() {
        #expect(AuthState.User(subject: "u").pictureURL(size: 100) == nil)
    }
}
