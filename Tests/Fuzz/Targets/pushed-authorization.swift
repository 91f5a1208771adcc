// libFuzzer target: what a pushed authorization request endpoint answers (RFC 9126 §2.2), read
// into the request_uri and lifetime the browser's URL then carries.
import Bearer
import Foundation

@_spi(Internals) @_spi(Migration) @_spi(Testing) @testable import BearerCore

private let request: AuthorizationRequest? = {
    guard let issuer = URL(string: "https://auth.example.com"),
        let authorize = URL(string: "https://auth.example.com/authorize?tenant=1"),
        let token = URL(string: "https://auth.example.com/token"),
        let redirect = URL(string: "com.example.app:/callback")
    else { return nil }
    let server = AuthorizationServer(issuer: issuer, authorizationEndpoint: authorize, tokenEndpoint: token)
    return try? AuthorizationRequest(
        server: server, client: Client(id: "client", redirectURI: redirect), scopes: ["openid", "email"])
}()

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    MemoryBudget.check(inputSize: count) {
        let data = Data(UnsafeRawBufferPointer(start: start, count: count))
        guard var request,
            let object = try? JSONDecoder().decodeRefusingDeepNesting([String: JSONValue].self, from: data),
            let pushed = try? PushedAuthorization(answer: object, receivedAt: Date(timeIntervalSince1970: 0))
        else { return }
        precondition(!pushed.requestURI.isEmpty && pushed.expiresAt.timeIntervalSince1970 >= 1)
        request.pushed = pushed
        // The URL the browser is sent to carries the reference alone, and it reads back unchanged.
        let pairs = FormEncoding.decodePairs(request.url.query ?? "")
        precondition(pairs.last?.name == "request_uri" && pairs.last?.value == pushed.requestURI)
        precondition(!pairs.contains { $0.name == "code_challenge" })
    }
    return 0
}
