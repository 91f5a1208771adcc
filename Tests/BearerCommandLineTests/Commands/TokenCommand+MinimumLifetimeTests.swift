import Bearer
import BearerCommandLine
import BearerTestSupport
import Foundation
import Testing

@Suite("token --min-lifetime")
struct TokenLifetimeTests {
    /// The fixture's clock is at 1_800_000_000; its session's token expires an hour later.
    private func saved(_ fixture: CommandFixture, expiresIn: TimeInterval) async throws {
        var state = try CommandFixture.session()
        state.accessTokenExpiresAt = Date(timeIntervalSince1970: 1_800_000_000 + expiresIn)
        try await fixture.store.save(state, key: "default")
    }

    private func local(_ fixture: CommandFixture, _ capture: Capture) -> LocalEnvironment {
        LocalEnvironment(
            variables: ["BEARER_CONFIG_DIR": fixture.folder.path], console: capture.console,
            clock: .fixed(Date(timeIntervalSince1970: 1_800_000_000)))
    }

    private static let refreshed = RecordingTransport.Reply.json(
        200, #"{"access_token":"cli-access-2","token_type":"Bearer","expires_in":3600,"refresh_token":"cli-refresh-2"}"#
    )

    @Test("The fast path prints a token that lasts long enough, and leaves a shorter one to the whole tool")
    func fastPath() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        try await saved(fixture, expiresIn: 3600)
        let capture = Capture()
        #expect(FastPath.run(["token", "--min-lifetime", "3600"], environment: local(fixture, capture)) == 0)
        #expect(capture.stdout == "cli-access-token\n")
        let short = Capture()
        #expect(FastPath.run(["token", "--min-lifetime", "3601"], environment: local(fixture, short)) == nil)
        #expect(short.stdout.isEmpty && short.stderr.isEmpty)
        #expect(FastPath.run(["token", "--min-lifetime", "0"], environment: local(fixture, short)) == nil)
    }

    @Test("The whole tool refreshes a token with less left, and prints the new one")
    func refreshesFirst() async throws {
        let fixture = CommandFixture(replies: [Self.refreshed])
        defer { fixture.removeAll() }
        try await saved(fixture, expiresIn: 300)
        let (status, output) = await fixture.run(["token", "--min-lifetime", "600"])
        #expect(status == 0, "\(output.stderr)")
        #expect(output.stdout == "cli-access-2\n")
        #expect(await fixture.transport.requests.count == 1)
    }

    @Test("A server whose tokens live shorter than asked is refused after one refresh, nothing printed")
    func refusesShortLivedTokens() async throws {
        let short = RecordingTransport.Reply.json(
            200, #"{"access_token":"cli-access-2","token_type":"Bearer","expires_in":900,"refresh_token":"r-2"}"#)
        let fixture = CommandFixture(replies: [short, short])
        defer { fixture.removeAll() }
        try await saved(fixture, expiresIn: 300)
        let (status, output) = await fixture.run(["token", "--min-lifetime", "1800"])
        #expect(status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("live 900 s") && output.stderr.contains("1800 s"), "\(output.stderr)")
        #expect(!output.stderr.contains("cli-access-2"))
        #expect(await fixture.transport.requests.count == 1)
    }

    @Test("Three calls asking for more than the server's known lifetime refresh once in all, not once each")
    func knownShortLifetimeIsNotRefreshedAgain() async throws {
        let short = RecordingTransport.Reply.json(
            200, #"{"access_token":"cli-access-2","token_type":"Bearer","expires_in":900,"refresh_token":"r-2"}"#)
        let fixture = CommandFixture(replies: [short, short, short])
        defer { fixture.removeAll() }
        try await saved(fixture, expiresIn: 300)
        for _ in 0..<3 {
            let (status, output) = await fixture.run(["token", "--min-lifetime", "1800"])
            #expect(status == 1)
            #expect(output.stdout.isEmpty)
            #expect(output.stderr.contains("live 900 s"), "\(output.stderr)")
        }
        #expect(await fixture.transport.requests.count == 1)
        #expect(try await fixture.store.load(key: "default")?.refreshToken?.value == "r-2")
    }

    @Test("A server that does not say how long its tokens live gets one refresh per call at most")
    func unknownLifetimeRefreshesOnce() async throws {
        let silent = RecordingTransport.Reply.json(
            200, #"{"access_token":"cli-access-2","token_type":"Bearer","refresh_token":"r-2"}"#)
        let fixture = CommandFixture(replies: [silent, silent, silent])
        defer { fixture.removeAll() }
        try await saved(fixture, expiresIn: 300)
        let (status, output) = await fixture.run(["token", "--min-lifetime", "1800"])
        #expect(status == 1)
        #expect(output.stdout.isEmpty)
        #expect(await fixture.transport.requests.count == 1)
    }

    @Test("A stale token of a server that does not say its lifetime is refreshed once, not twice")
    func staleTokenCountsItsRefresh() async throws {
        let silent = RecordingTransport.Reply.json(
            200, #"{"access_token":"cli-access-2","token_type":"Bearer","refresh_token":"r-2"}"#)
        let fixture = CommandFixture(replies: [silent, silent, silent])
        defer { fixture.removeAll() }
        try await saved(fixture, expiresIn: -60)
        let (status, _) = await fixture.run(["token", "--min-lifetime", "1800"])
        #expect(status == 1)
        #expect(await fixture.transport.requests.count == 1)
    }

    @Test("A stale token of a server known to grant shorter tokens is not refreshed for --min-lifetime")
    func knownShortLifetimeSendsNothing() async throws {
        let fixture = CommandFixture(replies: [Self.refreshed])
        defer { fixture.removeAll() }
        var state = try CommandFixture.session()
        state.accessTokenExpiresAt = Date(timeIntervalSince1970: 1_800_000_000 - 60)
        state.accessTokenLifetime = 900
        try await fixture.store.save(state, key: "default")
        let (status, output) = await fixture.run(["token", "--min-lifetime", "1800"])
        #expect(status == 1)
        #expect(output.stderr.contains("live 900 s"), "\(output.stderr)")
        #expect(await fixture.transport.requests.isEmpty)
    }

    @Test("--min-lifetime must be a number of seconds from 1 to a day", arguments: ["0", "-5", "x", "86401"])
    func usage(value: String) async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        try await saved(fixture, expiresIn: 3600)
        let (status, output) = await fixture.run(["token", "--min-lifetime", value])
        #expect(status == 64)
        #expect(output.stderr.contains("--min-lifetime"))
    }
}
