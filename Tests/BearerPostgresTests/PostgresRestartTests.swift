import Bearer
import BearerPostgres
import BearerTestSupport
import Foundation
import Testing

/// Restarts and crash recovery while holders are inside their bodies, with the refreshed tokens
/// still to save. The suite has a server of its own, which it stops and crashes, so it runs
/// serialized.
@Suite(
    "PostgresSessionStore: refreshes in flight survive a restart and crash recovery", .serialized,
    .postgresServer, .enabled(if: PostgresTestServer.isInstalled, PostgresTestServer.skipReason))
struct PostgresRestartTests {
    /// `holders` bodies hold one key each of a store with a pool of `holders`; the server is
    /// killed and started again while they all hold; then each saves its rotated tokens.
    private func restartWhileHolding(holders: Int) async throws {
        let server = try PostgresTestServer.running
        let store = try await StoreFixtures.store(poolSize: holders, lockTimeout: .seconds(5))
        for index in 0..<holders { try await store.save(StoreFixtures.state(), key: "user-\(index)") }
        let entered = Recorder<Int>()
        let restarted = Recorder<Bool>()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<holders {
                group.addTask {
                    try await store.withExclusiveAccess(to: "user-\(index)") { access in
                        entered.record(index)
                        while restarted.all.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
                        try await access.write(
                            StoreFixtures.state(access: "at-\(index)", refresh: "rt-\(index)"))
                    }
                }
            }
            group.addTask {
                while entered.all.count < holders { try await Task.sleep(for: .milliseconds(20)) }
                try await server.kill()
                try await Task.sleep(for: .seconds(1))
                try await server.restart()
                restarted.record(true)
            }
            try await group.waitForAll()
        }
        let reader = try await StoreFixtures.store(table: store.table)
        for index in 0..<holders {
            let saved = try await reader.load(key: "user-\(index)")
            #expect(saved?.refreshToken == RefreshToken("rt-\(index)"), "holder \(index)'s rotated tokens were saved")
        }
        let raw = try RawSQL(server.connectionString)
        #expect(
            try raw.query("SELECT count(*) FROM \(store.table) WHERE lease_owner IS NOT NULL") == ["0"],
            "every lease was given back")
        await store.close()
        await reader.close()
    }

    @Test("Four holders filling a pool of four each save their rotated tokens after a restart")
    func restartWithFullPool() async throws {
        try await restartWhileHolding(holders: 4)
    }

    @Test("A holder with a pool of one saves its rotated tokens after a restart")
    func restartWithPoolOfOne() async throws {
        try await restartWhileHolding(holders: 1)
    }

    @Test("Crash recovery (one backend killed) counts as a restart: a lease renewed before it lasts as long again")
    func crashRecoveryCountsAsRestart() async throws {
        let server = try PostgresTestServer.running
        let table = StoreFixtures.uniqueTable()
        let waiter = try await StoreFixtures.store(table: table, lockTimeout: .seconds(1))
        try await waiter.save(StoreFixtures.state(), key: "k")
        // A holder alive but cut off from the database: its lease was renewed 10 s ago, for 11 s.
        let raw = try RawSQL(server.connectionString)
        try raw.query(
            "UPDATE \(table) SET lease_owner = 'cut-off', lease_taken_at = clock_timestamp() - interval '10 seconds', "
                + "lease_until = clock_timestamp() + interval '1 second'")
        // Another backend dies by SIGKILL: PostgreSQL ends every connection and recovers, without
        // restarting the postmaster.
        let victim = try RawSQL(server.connectionString)
        let before = try raw.query("SELECT pg_postmaster_start_time()")
        kill(victim.backendPID, SIGKILL)
        var after: [String?] = []
        for _ in 0..<100 {
            try await Task.sleep(for: .milliseconds(100))
            if let probe = try? RawSQL(server.connectionString),
                let start = try? probe.query("SELECT pg_postmaster_start_time()")
            {
                after = start
                break
            }
        }
        #expect(after == before, "the postmaster did not restart: this is crash recovery")
        // `lease_until` has passed; the recovery gives the holder 11 s from it.
        try await Task.sleep(for: .seconds(2))
        let error = await #expect(throws: PostgresSessionStoreError.self) {
            try await waiter.withExclusiveAccess(to: "k") { _ in Issue.record("the waiter ran inside another's lease") }
        }
        #expect(error?.kind == .lockTimeout, "\(String(describing: error))")
        await waiter.close()
    }
}
