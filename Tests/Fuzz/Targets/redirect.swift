// libFuzzer target: authorization redirects checked against a pending request.
import Bearer
import Foundation

@_spi(Migration) @testable import BearerCore

private let request: AuthorizationRequest? = {
    guard let issuer = URL(string: "https://auth.example.com"),
        let authorize = URL(string: "https://auth.example.com/authorize?tenant=a"),
        let token = URL(string: "https://auth.example.com/token"),
        let redirect = URL(string: "com.example.app:/oauth2callback")
    else { return nil }
    var generator = FixedGenerator()
    let server = AuthorizationServer(
        issuer: issuer,
        authorizationEndpoint: authorize,
        tokenEndpoint: token,
        sendsIssuerInAuthorizationResponse: true
    )
    return try? AuthorizationRequest(
        server: server,
        client: Client(id: "fuzz", redirectURI: redirect),
        scopes: ["openid", "email"],
        using: &generator
    )
}()

private struct FixedGenerator: RandomNumberGenerator {
    mutating func next() -> UInt64 { 0x0123_4567_89AB_CDEF }
}

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    guard let request, let url = URL(string: text) else { return 0 }
    _ = try? AuthorizationResponse(redirect: url, for: request)
    _ = FormEncoding.decodePairs(text)
    return 0
}
