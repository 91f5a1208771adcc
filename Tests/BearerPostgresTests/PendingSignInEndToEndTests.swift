import Bearer
import BearerPostgres
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SharedPostgresServer {
    /// A web sign-in across instances, end to end: django-oauth-toolkit (the server scripts/test
    /// starts) signs the user in, one store (instance) begins the sign-in, another finishes it, both
    /// on one PostgreSQL database.
    @Suite(
        "End to end: a web sign-in begun on one instance and finished on another",
        .enabled(if: FleetServer.isConfigured, FleetServer.skipReason))
    struct PendingSignInEndToEndTests {
        @Test(
            "Instance A begins, instance B finishes from the callback and saves; the callback replayed on A is refused")
        func acrossInstances() async throws {
            let server = try FleetServer.shared
            let table = StoreFixtures.uniqueTable()
            let first = try await StoreFixtures.store(table: table)
            let second = try PostgresSessionStore(
                connectionString: try PostgresTestServer.running.connectionString, table: table)
            do {
                let transport = URLSessionTransport()
                let pending = try AuthSession.beginSignIn(
                    to: try await server.discover(using: transport), as: FleetServer.client,
                    scopes: ["openid", "email", "drive.readonly"], key: "user-00")
                try await first.savePendingSignIn(pending)

                let callback = try await server.authorize(pending.authorizationURL, as: "fleet-49")
                let session = try await AuthSession.finishSignIn(
                    redirect: callback, pendingSignIns: second, store: second, key: "user-00", transport: transport)
                #expect(await session.state.user?.subject != nil)
                let (body, response) = try await session.data(
                    for: URLRequest(url: try server.url("/drive/v3/about?fields=user")))
                #expect(response.statusCode == 200, "\(String(decoding: body, as: UTF8.self))")
                #expect(try await first.load(key: "user-00") == (await session.state), "saved for every instance")

                let replay = await #expect(throws: BearerError.self) {
                    _ = try await AuthSession.finishSignIn(
                        redirect: callback, pendingSignIns: first, store: first, key: "user-00", transport: transport)
                }
                #expect(replay?.kind == .invalidRedirect)
                // Nothing was sent for the replay: the session, read by the first instance, still works.
                let restored = try #require(
                    try await AuthSession.restore(key: "user-00", from: first, transport: transport))
                let (_, again) = try await restored.data(
                    for: URLRequest(url: try server.url("/drive/v3/about?fields=user")))
                #expect(again.statusCode == 200)
            } catch {
                await first.close()
                await second.close()
                throw error
            }
            await first.close()
            await second.close()
        }
    }
}
