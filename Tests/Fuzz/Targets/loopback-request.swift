// libFuzzer target: what a local network peer sends the loopback listener (the request head), and
// URLs handed to a pending sign-in from an app's URL handler.
import Bearer
import Foundation

@_spi(Internals) @testable import BearerCore

private let expected = RedirectExpectation(state: "s-1", issuer: "https://auth.example.com", requiresIssuer: true)

private let pending: PendingRedirect? = {
    guard let issuer = URL(string: "https://auth.example.com"),
        let authorize = URL(string: "https://auth.example.com/authorize"),
        let token = URL(string: "https://auth.example.com/token"),
        let redirect = URL(string: "com.example.app:/oauth2callback"),
        let request = try? AuthorizationRequest(
            server: AuthorizationServer(issuer: issuer, authorizationEndpoint: authorize, tokenEndpoint: token),
            client: Client(id: "fuzz", redirectURI: redirect),
            scopes: ["email"]
        )
    else { return nil }
    return PendingRedirect(request)
}()

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: min(count, LoopbackRequest.maximumHeadSize))
    let head = String(decoding: bytes, as: UTF8.self)
    _ = LoopbackRequest.classify(head, path: "/callback", hosts: ["127.0.0.1:5000"], expecting: expected)
    if let pending, let url = URL(string: head) { _ = pending.accepts(url) }
    _ = head.printable
    return 0
}
