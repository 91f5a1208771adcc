import Bearer
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore

/// A saved session reads back equal to itself, so a reload under the lock never "adopts" an
/// unchanged copy and never tells observers of a change that did not happen.
@Suite("A saved session's dates read back exactly")
struct DateRoundTripTests {
    /// Deterministic values: whole seconds, milliseconds, microseconds, nanoseconds, values near
    /// the reference date and far from it, and a spread of fractions.
    static let offsets: [TimeInterval] = {
        var values: [TimeInterval] = [
            0, 1, 0.001, 0.000_1, 0.000_001, 0.000_000_1, 1e-9, 0.5, 0.123_456_789, 59.999_999_9,
        ]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(Double(seed >> 11) / Double(1 << 53) * 400_000_000 - 100_000_000)
        }
        return values
    }()

    @Test("Access and refresh expiries survive a save and a reload, to the bit")
    func roundTrip() throws {
        var mismatches = 0
        for (index, offset) in Self.offsets.enumerated() {
            let base =
                index.isMultiple(of: 2)
                ? Date(timeIntervalSince1970: 1_800_000_000) : Date(timeIntervalSinceReferenceDate: 0)
            let state = AuthState(
                server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at"),
                accessTokenExpiresAt: base.addingTimeInterval(offset), refreshToken: RefreshToken("rt"),
                refreshTokenExpiresAt: base.addingTimeInterval(offset / 3))
            let reread = try AuthState(encoded: try state.encoded())
            if reread != state || reread.accessTokenExpiresAt != state.accessTokenExpiresAt { mismatches += 1 }
            let kept = try #require(state.accessTokenExpiresAt)
            #expect(abs(kept.timeIntervalSince(base.addingTimeInterval(offset))) < 0.000_001)
        }
        #expect(mismatches == 0)
    }

    @Test("A date set on a session is kept at its storable value, and setting that again changes nothing")
    func settingIsIdempotent() throws {
        var state = AuthState(server: Fixtures.server, client: Fixtures.publicClient)
        state.accessTokenExpiresAt = Date(timeIntervalSinceReferenceDate: 800_000_000.123_456_789)
        let first = state.accessTokenExpiresAt
        state.accessTokenExpiresAt = first
        #expect(state.accessTokenExpiresAt == first)
        #expect(try AuthState(encoded: try state.encoded()).accessTokenExpiresAt == first)
    }
}
