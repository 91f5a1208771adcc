import Bearer
import BearerPostgres
import BearerTestSupport
import BearerTesting
import Foundation
import Testing

@_spi(Bridge) @testable import BearerCore

extension SharedPostgresServer {
    /// A resource-first session (the MCP authorization profile) in a fleet's store: found by its
    /// resource from two stores on one table (two machines), and refreshed once between them,
    /// naming the resource.
    @Suite(
        "PostgresSessionStore: resource sessions across machines",
        .enabled(if: PostgresTestServer.isInstalled, PostgresTestServer.skipReason))
    struct PostgresResourceSessionTests {
        @Test("Two stores on one table restore a resource's session by its URL and refresh it once, with resource")
        func resourceSessionRefreshesOnce() async throws {
            let table = StoreFixtures.uniqueTable()
            let first = try await StoreFixtures.store(table: table)
            let second = try PostgresSessionStore(
                connectionString: try PostgresTestServer.running.connectionString, table: table)
            let resourceURL = StoreFixtures.url("https://mcp.example.com/mcp")
            var expired = StoreFixtures.state(expiresAt: StoreFixtures.epoch)
            expired.resource = try ProtectedResource(resourceURL)
            let key = ResourceSessionKeys.session(
                for: try ProtectedResource(resourceURL), issuer: StoreFixtures.server.issuer)
            try await first.save(expired, key: key)

            let clock = TestClock(StoreFixtures.epoch.addingTimeInterval(60))
            let transport = RecordingTransport(
                replies: [.json(200, StoreFixtures.tokenResponse(access: "at-2", refresh: "rt-2"))],
                responseDelay: .milliseconds(50))
            var sessions: [AuthSession] = []
            for store in [first, second, first, second] {
                let spelled = StoreFixtures.url("https://MCP.example.com:443/mcp/")
                sessions.append(
                    try #require(
                        try await AuthSession.restore(
                            resource: spelled, from: store, transport: transport, clock: clock.wallClock)))
            }
            let tokens = try await withThrowingTaskGroup(of: AccessToken.self) { group in
                for session in sessions { group.addTask { try await session.validAccessToken() } }
                return try await group.reduce(into: [AccessToken]()) { $0.append($1) }
            }
            #expect(tokens == Array(repeating: AccessToken("at-2"), count: 4))
            let refreshes = await transport.requests(toPathEnding: "/token")
            #expect(refreshes.count == 1)
            let form = String(decoding: refreshes.first?.body ?? Data(), as: UTF8.self)
            #expect(form.contains("resource=https%3A%2F%2Fmcp.example.com%2Fmcp"), "the refresh names the resource")
            let stored = try #require(try await second.load(key: key))
            #expect(stored.refreshToken == RefreshToken("rt-2") && stored.resource == expired.resource)

            let outside = await #expect(throws: BearerError.self) {
                try await sessions[1].data(
                    for: TransportRequest(url: StoreFixtures.url("https://mcp.example.com/admin")))
            }
            #expect(outside?.kind == .resourceMismatch)
            await first.close()
            await second.close()
        }
    }
}
