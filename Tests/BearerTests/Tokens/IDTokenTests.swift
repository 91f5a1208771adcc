import Bearer
import BearerTestSupport
import Foundation
import Testing

@Suite("ID tokens")
struct IDTokenTests {
    private let now = Fixtures.epoch

    private func token(_ claims: [String: JSONValue]) throws -> IDToken {
        var all: [String: JSONValue] = [
            "iss": .string(Fixtures.issuer),
            "sub": "1",
            "aud": "client-123",
            "iat": .number(now.timeIntervalSince1970),
            "exp": .number(now.timeIntervalSince1970 + 3600),
            "nonce": "n-1",
        ]
        all.merge(claims) { _, new in new }
        return try IDToken(TestTokens.jwt(all))
    }

    private func validate(_ token: IDToken, at time: Date? = nil, nonce: String? = "n-1", skew: TimeInterval = 600)
        throws
    {
        let clock = WallClock.fixed(time ?? now).allowingSkew(skew)
        try token.validate(issuer: Fixtures.issuer, clientID: "client-123", nonce: nonce, clock: clock)
    }

    @Test("Valid claims pass, and email_verified is read from a bool or a string")
    func validClaims() throws {
        let token = try token(["email": "a@example.com", "email_verified": "true"])
        try validate(token)
        #expect(token.claims.email == "a@example.com")
        #expect(token.claims.emailVerified == true)
        #expect(token.claims.subject == "1")
        #expect(try self.token(["email_verified": .bool(false)]).claims.emailVerified == false)
    }

    @Test("The issuer must match exactly")
    func issuer() throws {
        #expect(throws: BearerError.self) { try validate(try token(["iss": "https://auth.example.com/"])) }
    }

    @Test("Google's ID tokens may name either issuer spelling; other servers' must match exactly")
    func googleIssuerSpellings() throws {
        let clock = WallClock.fixed(now)
        for spelling in ["https://accounts.google.com", "accounts.google.com"] {
            let google = try token(["iss": .string(spelling)])
            #expect(throws: Never.self) {
                try google.validate(for: .google, clientID: "client-123", nonce: "n-1", clock: clock)
            }
        }
        #expect(throws: BearerError.self) {
            try token(["iss": "accounts.google.com."]).validate(
                for: .google, clientID: "client-123", nonce: "n-1", clock: clock)
        }
        let bare = try token(["iss": "auth.example.com"])
        #expect(throws: BearerError.self) {
            try bare.validate(for: Fixtures.server, clientID: "client-123", nonce: "n-1", clock: clock)
        }
        #expect(throws: BearerError.self) {
            try token(["iss": "accounts.google.com"]).validate(
                issuer: "https://accounts.google.com", clientID: "client-123", nonce: "n-1", clock: clock)
        }
    }

    @Test("aud may be a string or an array; several audiences need azp equal to the client")
    func audience() throws {
        try validate(try token(["aud": .array(["client-123"])]))
        try validate(try token(["aud": .array(["client-123", "other"]), "azp": "client-123"]))
        #expect(throws: BearerError.self) { try validate(try token(["aud": .array(["client-123", "other"])])) }
        #expect(throws: BearerError.self) {
            try validate(try token(["aud": .array(["client-123", "other"]), "azp": "other"]))
        }
        #expect(throws: BearerError.self) { try validate(try token(["aud": "other"])) }
        #expect(throws: BearerError.self) { try validate(try token(["aud": "client-123", "azp": "other"])) }
    }

    @Test("exp and iat are checked with a skew of 10 minutes by default, and the skew can be set")
    func timeChecks() throws {
        let token = try token([:])
        try validate(token, at: now.addingTimeInterval(3600 + 599))
        #expect(throws: BearerError.self) { try validate(token, at: now.addingTimeInterval(3600 + 600)) }
        #expect(throws: BearerError.self) { try validate(token, at: now.addingTimeInterval(3600 + 61), skew: 60) }
        try validate(token, at: now.addingTimeInterval(-600))
        #expect(throws: BearerError.self) { try validate(token, at: now.addingTimeInterval(-601)) }
    }

    @Test("The nonce must equal the request's")
    func nonce() throws {
        #expect(throws: BearerError.self) { try validate(try token([:]), nonce: "n-2") }
        #expect(throws: BearerError.self) { try validate(try token(["nonce": .null]), nonce: "n-1") }
        try validate(try token(["nonce": .null]), nonce: nil)
    }

    @Test("Padded and standard-base64 segments are decoded")
    func paddedSegments() throws {
        let payload =
            #"{"iss":"\#(Fixtures.issuer)","sub":"1?>","aud":"client-123","iat":\#(Int(now.timeIntervalSince1970)),"exp":\#(Int(now.timeIntervalSince1970) + 60)}"#
        let standard = Data(payload.utf8).base64EncodedString()
        let header = Data(#"{"alg":"RS256"}"#.utf8).base64EncodedString()
        let token = try IDToken(header + "." + standard + ".c2ln")
        #expect(token.claims.subject == "1?>")
    }

    @Test(
        "Malformed tokens are typed errors",
        arguments: ["", "a.b", "a.b.c.d", "!!.e30.x", "e30.!!.x", "e30.e30.x", "e30.W10.x"])
    func malformed(value: String) {
        let error = #expect(throws: BearerError.self) { try IDToken(value) }
        #expect(error?.kind == .invalidIDToken)
    }
}
