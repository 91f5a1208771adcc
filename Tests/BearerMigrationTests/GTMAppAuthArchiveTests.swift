import Bearer
import BearerMigration
import Foundation
import Testing

@Suite("GTMAppAuth keyed archives")
struct GTMAppAuthArchiveTests {
    @Test("A GTMAppAuth archive reads tokens, NSDate expiry, NSURL endpoints, client, user and extras")
    func readsFullArchive() throws {
        let state = try GTMAppAuthArchive.decode(try Fixture.data("gtmappauth-google.archive"))
        #expect(state.accessToken?.value == "fixture-access-token")
        #expect(state.refreshToken?.value == "fixture-refresh-token")
        #expect(state.accessTokenExpiresAt == .distantPast, "migrated sessions refresh before use")
        #expect(state.metadata["gtmappauth.expiresAt"].flatMap(Double.init) == 1_800_003_600, "kept for writing back")
        #expect(state.server.issuer.absoluteString == "https://accounts.google.com")
        #expect(state.server.tokenEndpoint.absoluteString == "https://oauth2.googleapis.com/token")
        #expect(state.server.authorizationEndpoint.absoluteString == "https://accounts.google.com/o/oauth2/v2/auth")
        #expect(state.server.revocationEndpoint?.absoluteString == "https://oauth2.googleapis.com/revoke")
        #expect(state.client.id == Fixture.googleClientID)
        #expect(state.client.redirectURI.absoluteString == Fixture.googleRedirect)
        #expect(state.grantedScopes.contains("https://www.googleapis.com/auth/drive.readonly"))
        #expect(state.hasGranted("email"))
        #expect(state.user?.subject == "110169484474386276334")
        #expect(state.user?.email == "fixture.user@example.com")
        #expect(state.user?.emailVerified == true)
        #expect(state.idToken?.claims.subject == "110169484474386276334")
        #expect(state.metadata["serviceProvider"] == "Google")
        #expect(state.additionalParameters["refresh_token_expires_in"] == 604_799)
        #expect(state.additionalParameters["x_extra"] == ["nested": "yes"])
    }

    @Test("A GTMAuthSession archive flagged for refresh needs one, and keeps its fields without an ID token")
    func readsNeedsRefreshArchive() throws {
        let state = try GTMAppAuthArchive.decode(try Fixture.data("gtmappauth-needs-refresh.archive"))
        #expect(state.needsRefresh(at: Date(timeIntervalSince1970: 0)))
        #expect(state.accessToken?.value == "fixture-access-token")
        #expect(state.idToken == nil)
        #expect(
            state.user
                == AuthState.User(
                    subject: "110169484474386276334", email: "fixture.user@example.com", emailVerified: true))
        #expect(
            state.server.issuer.absoluteString == "https://accounts.google.com",
            "the issuer comes from the discovery document")
    }

    @Test(
        "Damaged archives are typed errors",
        arguments: [
            "gtmappauth-truncated.archive", "gtmappauth-cycle.archive", "gtmappauth-dangling.archive",
        ])
    func damagedArchives(name: String) throws {
        let error = #expect(throws: MigrationError.self) { try GTMAppAuthArchive.decode(try Fixture.data(name)) }
        #expect(error?.kind == .malformedArchive || error?.kind == .malformedItem)
    }

    @Test("Every prefix of an archive is refused without a crash")
    func everyPrefix() throws {
        let data = try Fixture.data("gtmappauth-google.archive")
        for length in stride(from: 0, to: data.count, by: 7) {
            #expect(throws: MigrationError.self) { try GTMAppAuthArchive.decode(data.prefix(length)) }
        }
    }

    @Test(
        "Legacy → AuthState → archive → AuthState keeps every field",
        arguments: [
            "gtmappauth-google.archive", "gtmappauth-needs-refresh.archive",
        ])
    func roundTrip(name: String) throws {
        let state = try GTMAppAuthArchive.decode(try Fixture.data(name))
        let written = GTMAppAuthArchive.encode(state)
        #expect(written.starts(with: Array("bplist00".utf8)))
        let again = try GTMAppAuthArchive.decode(written)
        #expect(again == state)
        #expect(GTMAppAuthArchive.encode(again) == written, "writing is deterministic")
    }

    @Test("Sessions from other formats can be written as archives and read back")
    func writesOtherSessions() throws {
        let fromString = try GTMOAuth2PersistenceString.decode(
            try Fixture.text("gtmappauth-dialect.txt"),
            server: .google,
            client: try Fixture.googleClient()
        )
        var state = try GTMAppAuthArchive.decode(GTMAppAuthArchive.encode(fromString))
        #expect(state.refreshToken == fromString.refreshToken)
        #expect(state.accessToken == fromString.accessToken)
        #expect(state.user == fromString.user)
        #expect(state.grantedScopes == fromString.grantedScopes)
        state.signInRequiredError = OAuthError(code: .invalidGrant)
        #expect(try GTMAppAuthArchive.decode(GTMAppAuthArchive.encode(state)).signInRequired)
    }
}

@Suite("GoogleSignIn, application default credentials, format detection")
struct OtherLegacyFormatTests {
    private let bundleID = "com.google.GoogleSignInInternalSample.dev"

    @Test("The fingerprint names the client; the extra parameters are appended")
    func googleSignIn() throws {
        let fingerprint = try Fixture.text("googlesignin-fingerprint.txt")
        #expect(GoogleSignInLegacy.clientID(inFingerprint: fingerprint, bundleID: bundleID) == Fixture.googleClientID)
        let state = try GoogleSignInLegacy.decode(
            fingerprint: fingerprint,
            bundleID: bundleID,
            persistenceString: try Fixture.text("googlesignin-persistence.txt"),
            additionalParameters: try Fixture.text("googlesignin-atrp.txt")
        )
        #expect(state.client.id == Fixture.googleClientID)
        #expect(state.client.redirectURI.absoluteString == Fixture.googleRedirect)
        #expect(state.server == .google)
        #expect(state.refreshToken?.value == "fixture-refresh-token")
        #expect(state.user?.email == "fixture.user@example.com")
        #expect(state.grantedScopes == ["email", "profile"])
        #expect(state.metadata["gtmoauth2.hd"] == "example.com")
        #expect(state.metadata["gtmoauth2.param"] == "value")
        #expect(GoogleSignInLegacy.additionalParametersItem(for: fingerprint) == fingerprint + "~~atrp")
    }

    @Test("Fingerprints of another app or without scopes are refused")
    func googleSignInBadFingerprints() throws {
        for fingerprint in [
            "other.app-123.apps.googleusercontent.com-email", "\(bundleID)-", "\(bundleID)-client-only",
            "\(bundleID)--email",
        ] {
            #expect(throws: MigrationError.self) {
                try GoogleSignInLegacy.decode(
                    fingerprint: fingerprint,
                    bundleID: bundleID,
                    persistenceString: "refresh_token=r",
                    additionalParameters: nil
                )
            }
        }
        #expect(
            GoogleSignInLegacy.clientID(
                inFingerprint: "\(bundleID)-a-b.apps-https://x-email profile-hd=test.com", bundleID: bundleID)
                == "a-b.apps-https://x"
        )
    }

    @Test("Application default credentials become a Google session with the client secret")
    func applicationDefaultCredentials() throws {
        let state = try ApplicationDefaultCredentials.decode(try Fixture.data("adc-authorized-user.json"))
        #expect(state.server == .google)
        #expect(state.client.id == "764086051850-fixture.apps.googleusercontent.com")
        #expect(state.client.secret?.value == "fixture-client-secret")
        #expect(state.refreshToken?.value == "fixture-refresh-token")
        #expect(state.accessToken == nil)
        #expect(state.metadata["adc.quota_project_id"] == "fixture-project")
        #expect(state.metadata.values.allSatisfy { !$0.contains("fixture-refresh-token") && !$0.contains("secret") })
        let error = #expect(throws: MigrationError.self) {
            try ApplicationDefaultCredentials.decode(try Fixture.data("adc-service-account.json"))
        }
        #expect(error?.reason.contains("service_account") == true)
    }

    @Test("Formats are recognised from their bytes")
    func detection() throws {
        #expect(LegacyFormat.detect(try Fixture.data("gtmappauth-google.archive")) == .gtmAppAuth)
        #expect(LegacyFormat.detect(try Fixture.data("gtmappauth-dialect.txt")) == .gtmOAuth2)
        #expect(LegacyFormat.detect(try Fixture.data("gtmoauth2-dialect.txt")) == .gtmOAuth2)
        #expect(LegacyFormat.detect(try Fixture.data("adc-authorized-user.json")) == .applicationDefaultCredentials)
        let envelope = try GTMAppAuthArchive.decode(try Fixture.data("gtmappauth-google.archive")).encoded()
        #expect(LegacyFormat.detect(envelope) == .bearer)
        #expect(try LegacyFormat.bearer.decode(envelope) == (try AuthState(encoded: envelope)))
        #expect(LegacyFormat.detect(Data("hello world".utf8)) == nil)
        #expect(LegacyFormat.detect(Data([0xFF, 0xFE])) == nil)
        #expect(LegacyFormat.detect(Data()) == nil)
    }
}
