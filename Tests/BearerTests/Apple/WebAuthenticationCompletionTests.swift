import Bearer
import BearerTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("In-app browser sheets: callbacks and errors")
struct WebAuthenticationDecisionTests {
    @Test("The callback comes from the redirect URI: a custom scheme, lowercased, or an https host and path")
    func callbacks() throws {
        let google = try Client.googleiOS(clientID: "123-abc.apps.googleusercontent.com")
        #expect(
            try WebAuthenticationCallback(redirectURI: try #require(google.redirectURI))
                == .customScheme("com.googleusercontent.apps.123-abc"))
        #expect(try WebAuthenticationCallback(redirectURI: Fixtures.url("MyApp:/cb")) == .customScheme("myapp"))
        let https = try WebAuthenticationCallback(redirectURI: Fixtures.url("https://App.Example.com/oauth/cb"))
        #expect(https == .https(host: "app.example.com", path: "/oauth/cb"))
        #expect((try? https.requireCustomScheme()) == nil)
        let loopback = #expect(throws: BearerError.self) {
            try WebAuthenticationCallback(redirectURI: Fixtures.url("http://127.0.0.1:5000/callback"))
        }
        #expect(loopback?.kind == .invalidConfiguration)
    }

    @Test("The sheet's completion: a redirect, the user's cancel, a cancelled task, and each failure")
    func completions() throws {
        let redirect = Fixtures.url("myapp:/cb?code=c&state=s")
        #expect(
            try WebAuthenticationCompletion.outcome(redirect: redirect, error: nil, taskCancelled: false) == redirect)
        let domain = WebAuthenticationCompletion.errorDomain
        let cancelled = NSError(domain: domain, code: 1)
        #expect(throws: CancellationError.self, "the user's cancel") {
            try WebAuthenticationCompletion.outcome(redirect: nil, error: cancelled, taskCancelled: false)
        }
        #expect(throws: CancellationError.self) {
            try WebAuthenticationCompletion.outcome(redirect: nil, error: cancelled, taskCancelled: true)
        }
        for (code, words) in [(2, "no window"), (3, "not a visible window"), (99, "failed")] {
            let error = #expect(throws: BearerError.self) {
                try WebAuthenticationCompletion.outcome(
                    redirect: nil, error: NSError(domain: domain, code: code), taskCancelled: false)
            }
            #expect(error?.kind == .agentFailed)
            #expect(error?.reason.contains(words) == true, "\(code)")
            #expect((error?.underlyingError as? NSError)?.code == code)
        }
        let other = #expect(throws: BearerError.self) {
            try WebAuthenticationCompletion.outcome(
                redirect: nil, error: NSError(domain: "other", code: 1), taskCancelled: false)
        }
        #expect(other?.kind == .agentFailed, "code 1 of another domain is not a cancel")
        #expect(throws: BearerError.self) {
            try WebAuthenticationCompletion.outcome(redirect: nil, error: nil, taskCancelled: false)
        }
    }
}
