import BearerTestSupport
import Foundation
import Testing

@testable import Bearer
@_spi(Migration) @testable import BearerCore

/// The calls that take no transport share one for the whole process, so a server that restores a
/// session per request reuses one `URLSession` and its connections.
@Suite("The default transport is one per process")
struct SharedTransportTests {
    @Test("Sessions restored without a transport share the process's one URLSessionTransport")
    func restoredSessionsShareTransport() async throws {
        let store = InMemorySessionStore()
        try await store.save(
            AuthState(
                server: Fixtures.server, client: Fixtures.publicClient, accessToken: AccessToken("at"),
                accessTokenExpiresAt: Fixtures.epoch, refreshToken: nil, grantedScopes: ["email"]),
            key: "k")
        var transports: [URLSessionTransport] = []
        for _ in 0..<2 {
            let session = try #require(try await AuthSession.restore(key: "k", from: store))
            let transport = await session.transport
            transports.append(try #require(transport as? URLSessionTransport))
        }
        #expect(transports[0] === transports[1])
        #expect(transports[0] === URLSessionTransport.shared)
    }
}
