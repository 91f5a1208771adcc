// libFuzzer target: the claims of back-channel logout tokens (OpenID Connect Back-Channel Logout
// 1.0 §2.4, §2.6) as a provider could send them, checked and matched against a stored session.
import Bearer
import Foundation

@_spi(Testing) @_spi(Migration) @_spi(Fleet) @testable import BearerCore

let issuer = "https://auth.example.com"
let clock = WallClock { Date(timeIntervalSince1970: 1_800_000_000) }
let stored: AuthState = {
    guard let url = URL(string: issuer), let endpoint = URL(string: issuer + "/token") else {
        fatalError("the example URLs did not parse")
    }
    return AuthState(
        server: AuthorizationServer(issuer: url, authorizationEndpoint: endpoint, tokenEndpoint: endpoint),
        client: Client(id: "client-123"), refreshToken: RefreshToken("rt"),
        user: AuthState.User(subject: "user-1"), providerSessionID: "sid-1")
}()

/// Runs one input; libFuzzer calls it with each generated input. The first byte chooses the
/// header's `typ` (none, logout+jwt, JWT, or the next line of the input); the rest is the payload.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    MemoryBudget.check(inputSize: count) {
        let bytes = UnsafeRawBufferPointer(start: start, count: count)
        guard let selector = bytes.first else { return }
        var payload = Data(bytes.dropFirst())
        let type: String?
        switch selector % 4 {
        case 0: type = nil
        case 1: type = "logout+jwt"
        case 2: type = "JWT"
        default:
            let line = payload.prefix { $0 != UInt8(ascii: "\n") }
            type = String(decoding: line, as: UTF8.self)
            payload = payload.dropFirst(line.count + 1)
        }
        guard case .object(let claims)? = try? JSONParser.parse(payload) else { return }
        guard
            let token = try? LogoutToken(
                claims: claims, type: type, issuers: [issuer], clientIDs: ["client-123"], clock: clock)
        else { return }
        // An accepted token names a session or a user, and is never valid past its window.
        guard token.sessionID != nil || token.subject != nil, token.expiresAt <= token.issuedAt.addingTimeInterval(120)
        else { fatalError("an accepted logout token broke its invariants") }
        _ = token.ends(stored)
        _ = stored.endedAtProvider()
    }
    return 0
}
