import Bearer
import BearerMigration
import Foundation
import Testing

@Suite("GTMOAuth2 persistence strings")
struct GTMOAuth2PersistenceStringTests {
    @Test("The GTMAppAuth-dialect vector reads every field, and needs a refresh")
    func gtmAppAuthVector() throws {
        let state = try GTMOAuth2PersistenceString.decode(
            try Fixture.text("gtmappauth-dialect.txt"),
            server: .google,
            client: try Fixture.googleClient()
        )
        #expect(state.accessToken?.value == "access_token")
        #expect(state.refreshToken?.value == "refresh_token")
        #expect(state.grantedScopes == ["profile"])
        #expect(state.user == AuthState.User(subject: "123456789", email: "foo@foo.com", emailVerified: true))
        #expect(state.metadata["serviceProvider"] == "fooProvider")
        #expect(state.needsRefresh(at: Date()))
    }

    @Test("The gtm-oauth2 dialect reads email and isVerified, with no access token")
    func gtmOAuth2Dialect() throws {
        let state = try GTMOAuth2PersistenceString.decode(
            try Fixture.text("gtmoauth2-dialect.txt"),
            server: .google,
            client: try Fixture.googleClient()
        )
        #expect(state.accessToken == nil)
        #expect(state.refreshToken?.value == "1/fixture-refresh-token")
        #expect(state.grantedScopes == ["https://www.googleapis.com/auth/userinfo.email", "openid"])
        #expect(state.user?.email == "fixture.user@example.com")
        #expect(state.user?.emailVerified == true)
        #expect(state.user?.subject == "4242")
        #expect(state.hasGranted("email"))
    }

    @Test("Parsing follows gtm-oauth2: first =, last duplicate, bad escapes kept, + kept, empty values")
    func awkwardString() throws {
        let fields = GTMOAuth2PersistenceString.fields(of: try Fixture.text("gtmoauth2-awkward.txt"))
        #expect(fields["refresh_token"] == "a=b=c")
        #expect(fields["email"] == "second@example.com")
        #expect(fields["bad"] == "%zz%4")
        #expect(fields["flag"] == "")
        #expect(fields["scope"] == "")
        #expect(fields["plus"] == "a+b")
        #expect(fields["userID"] == "")
        let state = try GTMOAuth2PersistenceString.decode(
            try Fixture.text("gtmoauth2-awkward.txt"),
            server: .google,
            client: try Fixture.googleClient()
        )
        #expect(state.refreshToken?.value == "a=b=c")
        #expect(state.user?.emailVerified == false)
        #expect(state.metadata["gtmoauth2.bad"] == "%zz%4")
        #expect(state.grantedScopes.isEmpty)
    }

    @Test(
        "A string without any token, or only an access token outside RFC 6750's b64token, is a typed error",
        arguments: [
            "", "&&&", "scope=email", "access_token=&refresh_token=", "access_token=a%0D%0AX-Injected%3A%201",
            "refresh_token=&access_token=a%22b", "access_token=a%C2%97b",
        ])
    func noToken(text: String) throws {
        let error = #expect(throws: MigrationError.self) {
            try GTMOAuth2PersistenceString.decode(text, server: .google, client: try Fixture.googleClient())
        }
        #expect(error?.kind == .malformedItem)
    }

    @Test(
        "Objective-C boolValue rules for the verified flag",
        arguments: [
            ("y", true), ("Y", true), ("t", true), ("true", true), ("yes", true), ("1", true), ("007", true),
            (" +9", true),
            ("0", false), ("n", false), ("false", false), ("no", false), ("", false), ("-0", false),
        ])
    func verifiedFlag(text: String, expected: Bool) throws {
        let state = try GTMOAuth2PersistenceString.decode(
            "refresh_token=r&userEmail=a&userEmailIsVerified=" + text,
            server: .google,
            client: try Fixture.googleClient()
        )
        #expect(state.user?.emailVerified == expected)
    }

    @Test("The GTMAppAuth dialect writes GTMAppAuth's own string back byte for byte, verified flag included")
    func writesGTMAppAuthDialect() throws {
        let original = try Fixture.text("gtmappauth-dialect.txt")
        let state = try GTMOAuth2PersistenceString.decode(original, server: .google, client: try Fixture.googleClient())
        let written = GTMOAuth2PersistenceString.encode(state, dialect: .gtmAppAuth)
        #expect(
            written
                == "access_token=access_token&refresh_token=refresh_token&scope=profile&serviceProvider=fooProvider"
                + "&userEmail=foo%40foo.com&userEmailIsVerified=y&userID=123456789"
        )
        #expect(written == original)
        var changed = state
        changed.user?.emailVerified = false
        #expect(GTMOAuth2PersistenceString.encode(changed, dialect: .gtmAppAuth).contains("userEmailIsVerified=false"))
        let again = try GTMOAuth2PersistenceString.decode(written, server: .google, client: try Fixture.googleClient())
        #expect(again == state)
    }

    @Test("The gtm-oauth2 dialect round-trips byte for byte and omits the access token beside a refresh token")
    func writesGTMOAuth2Dialect() throws {
        let original = try Fixture.text("gtmoauth2-dialect.txt")
        let state = try GTMOAuth2PersistenceString.decode(original, server: .google, client: try Fixture.googleClient())
        #expect(GTMOAuth2PersistenceString.encode(state, dialect: .gtmOAuth2) == original)
        var withAccess = state
        withAccess.accessToken = AccessToken("at")
        #expect(!GTMOAuth2PersistenceString.encode(withAccess, dialect: .gtmOAuth2).contains("access_token"))
        #expect(GTMOAuth2PersistenceString.encode(withAccess, dialect: .gtmAppAuth).contains("access_token=at"))
    }

    @Test("Values with % # [ ] & = + and spaces survive a round trip")
    func escaping() throws {
        let awkward = "a%b#c[d]e&f=g+h i/é"
        var state = try GTMOAuth2PersistenceString.decode(
            "refresh_token=r", server: .google, client: try Fixture.googleClient())
        state.refreshToken = RefreshToken(awkward)
        state.user = AuthState.User(subject: awkward, email: awkward)
        for dialect in GTMOAuth2PersistenceString.Dialect.allCases {
            let written = GTMOAuth2PersistenceString.encode(state, dialect: dialect)
            #expect(
                !written.contains("#") && !written.contains("[") && !written.contains(" ") && !written.contains("+"))
            let back = try GTMOAuth2PersistenceString.decode(
                written, server: .google, client: try Fixture.googleClient())
            #expect(back.refreshToken?.value == awkward)
            #expect(back.user?.subject == awkward)
            #expect(back.user?.email == awkward)
        }
    }
}
