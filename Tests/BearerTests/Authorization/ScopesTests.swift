import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore

/// Scopes are `1*NQCHAR` (RFC 6749 §3.3): anything else is refused before a request is built.
@Suite("Scope characters (RFC 6749 §3.3)")
struct ScopeCharacterTests {
    static let refused = ["", "a b", "quote\"d", #"back\slash"#, "del\u{7F}", "tab\t", "new\nline", "nul\u{0}", "é"]

    @Test("An authorization request refuses a scope outside NQCHAR", arguments: refused)
    func authorizationRequestRefuses(scope: String) throws {
        let error = #expect(throws: BearerError.self) { try Fixtures.request(scopes: ["openid", scope]) }
        #expect(error?.kind == .invalidScope)
        #expect(error?.reason.contains("\n") == false)
        #expect(error?.reason.contains("\t") == false)
    }

    @Test("Every NQCHAR is accepted, Google's URL scopes included")
    func nqcharAccepted() throws {
        let all = String(
            String.UnicodeScalarView((0x21...0x7E).compactMap(Unicode.Scalar.init).filter { $0 != "\"" && $0 != "\\" }))
        let request = try Fixtures.request(scopes: [all, "https://www.googleapis.com/auth/drive.file"])
        #expect(request.scopes.count == 2)
    }

    @Test("A refresh for a narrower scope refuses a bad scope without sending anything")
    func refreshRefuses() async throws {
        let state = AuthState(server: Fixtures.server, client: Fixtures.publicClient, refreshToken: RefreshToken("r"))
        let transport = RecordingTransport()
        let error = await #expect(throws: BearerError.self) {
            try await AuthorizationServerClient(transport: transport).refresh(state, scopes: ["email\ninjected"])
        }
        #expect(error?.kind == .invalidScope)
        #expect(await transport.requests.isEmpty)
    }

    @Test("The device flow refuses a bad scope without sending anything")
    func deviceFlowRefuses() async throws {
        var server = Fixtures.server
        server.deviceAuthorizationEndpoint = Fixtures.url("https://auth.example.com/device")
        let transport = RecordingTransport()
        let error = await #expect(throws: BearerError.self) {
            try await AuthorizationServerClient(transport: transport).startDeviceAuthorization(
                at: server, as: Fixtures.publicClient, scopes: ["a\"b"])
        }
        #expect(error?.kind == .invalidScope)
        #expect(await transport.requests.isEmpty)
    }
}
