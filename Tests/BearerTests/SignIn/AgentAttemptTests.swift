@_spi(Bridge) import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Bridge) @_spi(Internals) @testable import BearerCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("In-app browser sheets: one result per showing")
struct AgentAttemptTests {
    func outcome(of attempt: AgentAttempt) async throws -> URL {
        try await withCheckedThrowingContinuation { attempt.attach($0) }
    }

    @Test("The sheet's completion, from any thread, is delivered once; later ones are ignored")
    func completionOnce() async throws {
        let attempt = AgentAttempt()
        let redirect = Fixtures.url("myapp:/cb?code=c&state=s")
        Thread { attempt.finish(redirect: redirect, error: nil) }.start()
        #expect(try await outcome(of: attempt) == redirect)
        attempt.finish(redirect: nil, error: NSError(domain: WebAuthenticationCompletion.errorDomain, code: 1))
        attempt.cancel()
        #expect(attempt.isFinished)
    }

    @Test("A task cancelled before or while the sheet shows gets CancellationError, whatever the sheet says later")
    func cancellation() async throws {
        let early = AgentAttempt()
        early.cancel()
        #expect(early.isFinished, "the sheet need not be shown")
        await #expect(throws: CancellationError.self) { try await outcome(of: early) }

        let late = AgentAttempt()
        let waiting = Task { try await outcome(of: late) }
        late.cancel()
        late.finish(redirect: nil, error: NSError(domain: WebAuthenticationCompletion.errorDomain, code: 1))
        await #expect(throws: CancellationError.self) { try await waiting.value }

        let answeredAfter = AgentAttempt()
        answeredAfter.cancel()
        answeredAfter.finish(redirect: Fixtures.url("myapp:/cb?code=c&state=s"), error: nil)
        await #expect(throws: CancellationError.self, "a redirect after the cancel is ignored") {
            try await outcome(of: answeredAfter)
        }
    }

    @Test("A user's cancel is CancellationError; a sheet that cannot start is a typed failure")
    func userCancelAndFailure() async throws {
        let closed = AgentAttempt()
        closed.finish(redirect: nil, error: NSError(domain: WebAuthenticationCompletion.errorDomain, code: 1))
        await #expect(throws: CancellationError.self) { try await outcome(of: closed) }
        let failed = AgentAttempt()
        failed.fail(BearerError.agentFailed("could not start"))
        let error = await #expect(throws: BearerError.self) { try await outcome(of: failed) }
        #expect(error?.kind == .agentFailed)
    }
}
