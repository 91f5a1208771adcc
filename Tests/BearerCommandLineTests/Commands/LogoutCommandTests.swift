import Bearer
import BearerTestSupport
import Foundation
import Testing

@Suite("logout removes the local session, and its exit code says whether the grant was revoked")
struct LogoutCommandTests {
    @Test(
        "A failed revocation still removes the session, exits non-zero and says where to revoke",
        arguments: [
            (RecordingTransport.Reply.failure(.cannotConnectToHost), Int32(69)),
            (RecordingTransport.Reply.json(400, #"{"error":"invalid_request"}"#), Int32(1)),
        ])
    func failedRevocation(reply: RecordingTransport.Reply, expected: Int32) async throws {
        let fixture = CommandFixture(replies: [reply, reply])
        defer { fixture.removeAll() }
        try await fixture.store.save(try CommandFixture.session(), key: "default")
        let (status, output) = await fixture.run(["logout"])
        #expect(status == expected, "\(output.stderr)")
        #expect(try await fixture.store.load(key: "default") == nil)
        #expect(output.stderr.contains("may still be valid"))
        #expect(output.stderr.contains("auth.example.com"))
        #expect(!output.stderr.contains("cli-refresh-token") && !output.stderr.contains("cli-access-token"))
        // The refresh token, then the access token: each is tried though the first failed.
        #expect(await fixture.transport.requests(toPathEnding: "/revoke").count == 2)
    }

    @Test("A revoked grant exits 0")
    func revoked() async throws {
        let fixture = CommandFixture(replies: [.json(200, "{}"), .json(200, "{}")])
        defer { fixture.removeAll() }
        try await fixture.store.save(try CommandFixture.session(), key: "default")
        let (status, output) = await fixture.run(["logout"])
        #expect(status == 0, "\(output.stderr)")
        #expect(try await fixture.store.load(key: "default") == nil)
    }

    @Test("A Google grant that could not be revoked points at Google's permissions page")
    func googleRevocationPlace() async throws {
        let fixture = CommandFixture(replies: [.failure(.timedOut), .failure(.timedOut)])
        defer { fixture.removeAll() }
        var state = try CommandFixture.session()
        state.server = .google
        try await fixture.store.save(state, key: "default")
        let (status, output) = await fixture.run(["logout"])
        #expect(status == 69)
        #expect(output.stderr.contains("https://myaccount.google.com/permissions"))
    }

    @Test("logout --at-provider at a server without an end-session endpoint signs out locally and exits 1, saying so")
    func atProviderNotOffered() async throws {
        let fixture = CommandFixture(replies: [.json(200, "{}"), .json(200, "{}")])
        defer { fixture.removeAll() }
        try await fixture.store.save(try CommandFixture.session(), key: "default")
        let (status, output) = await fixture.run(["logout", "--at-provider", "--no-open"])
        #expect(status == 1, "\(output.stderr)")
        #expect(try await fixture.store.load(key: "default") == nil)
        #expect(output.stderr.contains("offers no end-session endpoint"))
        #expect(await fixture.transport.requests(toPathEnding: "/revoke").count == 2)
    }

    @Test("A browser option without --at-provider is a usage error, and nothing is removed")
    func browserOptionNeedsAtProvider() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        try await fixture.store.save(try CommandFixture.session(), key: "default")
        let (status, output) = await fixture.run(["logout", "--port", "18186"])
        #expect(status == 64, "\(output.stderr)")
        #expect(output.stderr.contains("--at-provider"))
        #expect(try await fixture.store.load(key: "default") != nil)
    }
}
