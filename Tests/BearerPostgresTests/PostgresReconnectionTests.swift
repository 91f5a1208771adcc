import Bearer
import BearerPostgres
import Foundation
import Testing

/// The server goes away and comes back; the suite has a server of its own, so it runs serialized.
@Suite(
    "PostgresSessionStore: reconnection after the server restarts", .serialized,
    .postgresServer, .enabled(if: PostgresTestServer.isInstalled, PostgresTestServer.skipReason))
struct PostgresReconnectionTests {
    @Test("While the server is down calls fail with transient errors; once it is back the pool reconnects")
    func reconnectsAfterRestart() async throws {
        let server = try PostgresTestServer.running
        let store = try await StoreFixtures.store(poolSize: 2)
        try await store.save(StoreFixtures.state(), key: "k")
        // Both connections of the pool are opened and sit idle.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                group.addTask { _ = try await store.withExclusiveAccess(to: UUID().uuidString) { _ in true } }
            }
            try await group.waitForAll()
        }

        try await server.kill()
        let down = await #expect(throws: PostgresSessionStoreError.self) { try await store.load(key: "k") }
        #expect(down?.isTransient == true, "\(String(describing: down))")
        #expect(down?.kind == .connectionFailed || down?.kind == .connectionLost, "\(String(describing: down))")

        try await server.restart()
        #expect(try await store.load(key: "k") == StoreFixtures.state())
        try await store.save(StoreFixtures.state(access: "at-2"), key: "k")
        #expect(
            try await store.withExclusiveAccess(to: "k") { access in try await access.load()?.accessToken }
                == AccessToken("at-2"))
        await store.close()
    }

    @Test("A lease taken before the server restarted lasts a lock timeout from the restart: its holder saves first")
    func leaseOutlivesRestart() async throws {
        let server = try PostgresTestServer.running
        let table = StoreFixtures.uniqueTable()
        let holder = try await StoreFixtures.store(table: table, lockTimeout: .seconds(4))
        let waiter = try PostgresSessionStore(
            connectionString: server.connectionString, table: table, lockTimeout: .seconds(1))
        try await holder.save(StoreFixtures.state(), key: "k")
        let rotated = StoreFixtures.state(access: "at-rotated", refresh: "rt-rotated")
        try await holder.withExclusiveAccess(to: "k") { access in
            try await server.kill()
            // Longer than the lease counted from when the lock was taken: only the restart rule
            // keeps the waiter out now.
            try await Task.sleep(for: .seconds(5))
            try await server.restart()
            let error = await #expect(throws: PostgresSessionStoreError.self) {
                try await waiter.withExclusiveAccess(to: "k") { access in try await access.load() }
            }
            #expect(error?.kind == .lockTimeout, "\(String(describing: error))")
            // The refresh that was under way when the server went down is saved, not lost.
            try await access.write(rotated)
        }
        #expect(try await waiter.withExclusiveAccess(to: "k") { access in try await access.load() } == rotated)
        await holder.close()
        await waiter.close()
    }

    @Test("A connection that broke while idle is replaced without the caller seeing an error")
    func idleConnectionReplacedSilently() async throws {
        let server = try PostgresTestServer.running
        let store = try await StoreFixtures.store(poolSize: 1)
        try await store.save(StoreFixtures.state(), key: "k")
        try await server.stop()
        try await server.restart()
        #expect(try await store.load(key: "k") == StoreFixtures.state())
        await store.close()
    }

    @Test("A closed store refuses calls with a closed error")
    func closedStore() async throws {
        let store = try await StoreFixtures.store()
        await store.close()
        let error = await #expect(throws: PostgresSessionStoreError.self) { try await store.keys() }
        #expect(error?.kind == .closed)
    }
}
