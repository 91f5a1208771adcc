import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every number a file holds is range-checked before a conversion that could trap, and the
/// freshness rule holds for every value a file can hold.
@Suite("Numbers read from a session file: range-checked, and never making an expired token fresh")
struct StoredNumberTests {
    static let outOfRange: [(String, String)] = [
        ("accessTokenExpiresAt", "1e300"), ("accessTokenExpiresAt", "-1e300"), ("refreshTokenExpiresAt", "1e12"),
        ("accessTokenLifetime", "1e300"), ("accessTokenExpiresAt", "1e400"),
    ]

    static func patched(_ field: String, _ number: String) throws -> Data {
        let state = AuthState(
            server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at"),
            accessTokenExpiresAt: Fixtures.epoch, accessTokenLifetime: 3600, refreshToken: RefreshToken("rt"))
        let text = String(decoding: try state.encoded(), as: UTF8.self)
        let pattern = try Regex("\"\(field)\":[-0-9.e+]+")
        guard text.contains(pattern) else {
            return Data(
                text.replacingOccurrences(of: "{", with: "{\"\(field)\":\(number),", options: [], range: nil).utf8)
        }
        return Data(text.replacing(pattern, with: "\"\(field)\":\(number)").utf8)
    }

    @Test("A date or lifetime out of range is a corrupt file, not a trap", arguments: outOfRange.indices)
    func outOfRangeIsCorrupt(index: Int) throws {
        let (field, number) = Self.outOfRange[index]
        let error = #expect(throws: BearerError.self) { try AuthState(encoded: try Self.patched(field, number)) }
        #expect(error?.kind == .unreadableSession)
    }

    @Test(
        "An expired token is never fresh, whatever lifetime or leeway is stored",
        arguments: [-3600.0, -1, 0, 1, 30, 3600, .infinity, -.infinity, .nan])
    func freshnessHolds(lifetime: Double) {
        let state = AuthState(
            server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at"),
            accessTokenExpiresAt: Fixtures.epoch, accessTokenLifetime: lifetime)
        for leeway in [-600.0, 0, 60, .nan] {
            #expect(state.needsRefresh(at: Fixtures.epoch, leeway: leeway), "lifetime \(lifetime), leeway \(leeway)")
            #expect(state.needsRefresh(at: Fixtures.epoch.addingTimeInterval(5), leeway: leeway))
            #expect(state.effectiveLeeway(leeway) >= 0)
        }
    }

    @Test("A stored unknown field holding a number too large for a Double is dropped; the session reads back the same")
    func unreadableNumberIsDropped() throws {
        let text = String(decoding: try Self.patched("accessTokenLifetime", "3600"), as: UTF8.self)
        let data = Data(text.replacingOccurrences(of: "{", with: #"{"additionalParameters":{"x":[1e400],"y":2},"#).utf8)
        let state = try AuthState(encoded: data)
        #expect(state.additionalParameters == ["y": .number(2)])
        #expect(try AuthState(encoded: try state.encoded()) == state)
    }

    @Test("A stored number outside JSON's grammar (1.) makes the file unreadable, naming only the byte offset")
    func malformedNumberIsRefused() throws {
        let text = String(decoding: try Self.patched("accessTokenLifetime", "3600"), as: UTF8.self)
        let data = Data(text.replacingOccurrences(of: "{", with: #"{"additionalParameters":{"x":[1.]},"#).utf8)
        let error = #expect(throws: BearerError.self) { try AuthState(encoded: data) }
        #expect(error?.kind == .unreadableSession)
        #expect(error?.reason.contains("at byte 32") == true, "\(String(describing: error))")
    }

    @Test("An unexplained 400 from the token endpoint says the server refused, not that the URL is wrong")
    func unexplained400() async throws {
        for body in ["", "{}"] {
            let response = TransportResponse(status: 400, headerFields: [:], body: Data(body.utf8))
            let error = #expect(throws: BearerError.self) {
                try TokenResponse(response: response, receivedAt: Fixtures.epoch)
            }
            #expect(error?.reason.contains("refused the request (HTTP 400)") == true)
            #expect(error?.reason.contains("Check the endpoint URL") == false)
        }
    }
}
