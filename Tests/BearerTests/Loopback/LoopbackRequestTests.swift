import Bearer
import BearerTestSupport
import Foundation
import Testing

@testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Loopback agent: what the listener accepts")
struct LoopbackRequestTests {
    let hosts: Set<String> = ["127.0.0.1:5000"]

    let expected = RedirectExpectation(state: "s-1", issuer: "https://auth.example.com", requiresIssuer: false)

    func classify(_ head: String, expecting: RedirectExpectation? = nil) -> LoopbackRequest {
        LoopbackRequest.classify(head, path: "/callback", hosts: hosts, expecting: expecting ?? expected)
    }

    @Test("The redirect with the registered Host and the request's state is the answer")
    func acceptsTheRedirect() {
        let head = "GET /callback?code=c&state=s-1 HTTP/1.1\r\nHost: 127.0.0.1:5000\r\nAccept: */*"
        #expect(classify(head) == .redirect(target: "/callback?code=c&state=s-1"))
        let error = "GET /callback?error=access_denied&state=s-1 HTTP/1.1\r\nhost: 127.0.0.1:5000"
        #expect(classify(error) == .redirect(target: "/callback?error=access_denied&state=s-1"))
    }

    @Test("An answer with the request's state ends the wait whatever its iss says; a repeated iss does not")
    func checksTheIssuer() {
        let host = " HTTP/1.1\r\nHost: 127.0.0.1:5000"
        let promised = RedirectExpectation(state: "s-1", issuer: "https://auth.example.com", requiresIssuer: true)
        let ending = [
            "/callback?error=access_denied&state=s-1&iss=https%3A%2F%2Fauth.example.com",
            "/callback?error=access_denied&state=s-1&iss=https%3A%2F%2Fevil.example",
            "/callback?code=c&state=s-1&iss=https%3A%2F%2Fevil.example",
            "/callback?error=access_denied&state=s-1",
            "/callback?code=c&state=s-1",
        ]
        for target in ending {
            #expect(classify("GET " + target + host, expecting: promised) == .redirect(target: target))
        }
        guard case .refuse = classify("GET /callback?code=c&state=s-1&iss=https%3A%2F%2Fauth.example.com&iss=x" + host)
        else {
            Issue.record("accepted a repeated iss")
            return
        }
    }

    @Test("Anything else is refused, so a local process or a web page cannot end the sign-in")
    func refusesTheRest() {
        let refused: [String] = [
            "GET /callback?error=access_denied HTTP/1.1\r\nHost: 127.0.0.1:5000",
            "GET /callback?error=access_denied&state=guess HTTP/1.1\r\nHost: 127.0.0.1:5000",
            "GET /callback?state=s-1&state=s-1&code=c HTTP/1.1\r\nHost: 127.0.0.1:5000",
            "GET /callback?code=c&state=s-1 HTTP/1.1\r\nHost: evil.example:5000",
            "GET /callback?code=c&state=s-1 HTTP/1.1\r\nHost: 127.0.0.1:5001",
            "GET /callback?code=c&state=s-1 HTTP/1.1",
            "GET /callback?code=c&state=s-1 HTTP/1.1\r\nHost: 127.0.0.1:5000\r\nHost: evil.example",
            "POST /callback?code=c&state=s-1 HTTP/1.1\r\nHost: 127.0.0.1:5000",
            "GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1:5000",
            "GET /callbackX?code=c&state=s-1 HTTP/1.1\r\nHost: 127.0.0.1:5000",
            "garbage",
            "",
        ]
        for head in refused {
            guard case .refuse = classify(head) else {
                Issue.record("accepted: \(head.debugDescription)")
                continue
            }
        }
    }
}
