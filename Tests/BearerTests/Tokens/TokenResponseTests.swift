import Bearer
import Foundation
import Testing

@testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Token responses")
struct TokenResponseTests {
    private func parse(_ status: Int, _ body: String, contentType: String = "application/json") throws -> TokenResponse
    {
        let response = TransportResponse(
            status: status, headerFields: ["Content-Type": contentType], body: Data(body.utf8))
        return try TokenResponse(response: response, receivedAt: Fixtures.epoch)
    }

    @Test("expires_in is read as a number or a string")
    func expiresInNumberOrString() throws {
        let number = try parse(200, #"{"access_token":"a","token_type":"Bearer","expires_in":3599}"#)
        #expect(number.expiresIn == 3599)
        let string = try parse(200, #"{"access_token":"a","token_type":"Bearer","expires_in":"3599"}"#)
        #expect(string.expiresIn == 3599)
        let absent = try parse(200, #"{"access_token":"a","token_type":"Bearer"}"#)
        #expect(absent.expiresIn == nil)
        // Keep the grant first: an unreadable lifetime is dropped and recorded, the tokens kept.
        let soon = try parse(200, #"{"access_token":"a","token_type":"Bearer","expires_in":"soon"}"#)
        #expect(soon.expiresIn == nil)
        #expect(soon.accessToken?.value == "a")
        #expect(soon.rejectedFields["expires_in"]?.kind == .invalidResponse)
    }

    @Test("Unknown fields are kept; scope is split; token_type compares case-insensitively")
    func keepsUnknownFields() throws {
        let response = try parse(
            200,
            #"{"access_token":"a","token_type":"bearer","scope":"email  openid","refresh_token":"r","x_extra":{"n":[1,true,null]}}"#
        )
        #expect(response.scopes == ["email", "openid"])
        #expect(response.refreshToken?.value == "r")
        #expect(response.additionalParameters == ["x_extra": .object(["n": .array([.number(1), .bool(true), .null])])])
    }

    @Test("A token type other than Bearer is refused with a clear error")
    func refusesOtherTokenTypes() {
        let error = #expect(throws: BearerError.self) {
            try parse(200, #"{"access_token":"a","token_type":"DPoP"}"#)
        }
        #expect(error?.kind == .invalidResponse)
        #expect(error?.reason.contains("DPoP") == true)
    }

    @Test("An OAuth error body becomes an OAuthError with the HTTP status")
    func oauthErrorWithStatus() {
        let error = #expect(throws: OAuthError.self) {
            try parse(400, #"{"error":"invalid_grant","error_description":"Bad verifier"}"#)
        }
        #expect(error?.code == .invalidGrant)
        #expect(error?.statusCode == 400)
        #expect(error?.errorDescription == "Bad verifier")
        #expect(error?.signInRequired == true)
    }

    @Test("An error body with 200 is still an error")
    func errorBodyWith200() {
        let error = #expect(throws: OAuthError.self) { try parse(200, #"{"error":"slow_down"}"#) }
        #expect(error?.code == .slowDown)
    }

    @Test("An HTML page is a clear error naming the status and content type, even with 200")
    func htmlIsClearError() {
        let ok = #expect(throws: BearerError.self) {
            try parse(200, "<html>Sign in to the Wi-Fi</html>", contentType: "text/html; charset=utf-8")
        }
        #expect(ok?.kind == .invalidResponse)
        #expect(ok?.reason.contains("200") == true)
        #expect(ok?.reason.contains("text/html") == true)

        let notFound = #expect(throws: BearerError.self) { try parse(404, "<html/>", contentType: "text/html") }
        #expect(notFound?.kind == .invalidResponse)
        #expect(notFound?.reason.contains("404") == true)
    }

    @Test("A 5xx without an OAuth body is a transient server error")
    func serverErrorIsTransient() {
        let error = #expect(throws: BearerError.self) {
            try parse(503, "Service Unavailable", contentType: "text/plain")
        }
        #expect(error?.kind == .serverUnavailable)
        #expect(error?.isTransient == true)
    }

    @Test("Truncated JSON and a missing access token are errors, not crashes")
    func malformedBodies() {
        let truncated = #expect(throws: BearerError.self) { try parse(200, #"{"access_token":"a","tok"#) }
        #expect(truncated?.kind == .invalidResponse)
        let missing = #expect(throws: BearerError.self) { try parse(200, #"{"token_type":"Bearer"}"#) }
        #expect(missing?.kind == .invalidResponse)
        let wrongType = #expect(throws: BearerError.self) {
            try parse(200, #"{"access_token":5,"token_type":"Bearer"}"#)
        }
        #expect(wrongType?.kind == .invalidResponse)
        let array = #expect(throws: BearerError.self) { try parse(200, "[]") }
        #expect(array?.kind == .invalidResponse)
    }
}
