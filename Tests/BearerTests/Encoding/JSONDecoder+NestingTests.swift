import Bearer
import Foundation
import Testing

@_spi(Internals) @_spi(Migration) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Foundation's JSON decoder traps on input that ends just as its nesting passes 512 levels, so
/// every JSON answer is checked for depth before it is decoded.
@Suite("JSON nested past Foundation's limit is a typed error, never a crash")
struct JSONNestingTests {
    /// Inputs that end exactly one level past the limit, and deeper ones.
    static let deep = [
        String(repeating: "[", count: 513),
        String(repeating: #"{"a":"#, count: 513),
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
    ]

    @Test("A token endpoint's answer nested too deeply is refused", arguments: deep)
    func tokenResponse(body: String) throws {
        let response = TransportResponse(
            status: 200, headerFields: ["Content-Type": "application/json"], body: Data(body.utf8))
        #expect(throws: BearerError.self) {
            try TokenResponse(response: response, receivedAt: Fixtures.epoch)
        }
    }

    @Test("A session file, a discovery document or an ID token nested too deeply is refused", arguments: deep)
    func otherDocuments(body: String) throws {
        #expect(throws: BearerError.self) { try AuthState(encoded: Data(body.utf8)) }
        #expect(throws: BearerError.self) {
            try AuthorizationServer(metadata: Data(body.utf8), expectedIssuer: Fixtures.url(Fixtures.issuer))
        }
        let segment = Data(body.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        #expect(throws: BearerError.self) { try IDToken("\(segment).\(segment).c2ln") }
    }

    @Test("Nesting up to the limit still decodes, and brackets inside strings do not count")
    func withinLimit() throws {
        let nested = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try JSONDecoder().decodeRefusingDeepNesting(JSONValue.self, from: Data(nested.utf8)) != .null)
        let text = #"{"a":"\#(String(repeating: "[", count: 600))\" ["}"#
        #expect(JSONDecoder.nestsWithinLimit(Data(text.utf8)))
        #expect(!JSONDecoder.nestsWithinLimit(Data(String(repeating: "[", count: 513).utf8)))
    }
}
