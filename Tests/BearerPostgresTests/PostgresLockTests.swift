import Bearer
import BearerPostgres
import BearerTestSupport
import Foundation
import Testing

extension SharedPostgresServer {
    /// `withExclusiveAccess` against a real server. Each store has its own pool, so two stores on the
    /// same table behave as two processes do.
    @Suite(
        "PostgresSessionStore: exclusive access across connections",
        .enabled(if: PostgresTestServer.isInstalled, PostgresTestServer.skipReason))
    struct PostgresLockTests {
        private static func peer(
            of table: String, lockTimeout: Duration = StoreFixtures.patientLockTimeout
        ) throws -> PostgresSessionStore {
            try PostgresSessionStore(
                connectionString: try PostgresTestServer.running.connectionString, table: table,
                lockTimeout: lockTimeout)
        }

        @Test("A body's loads and saves run on the lock's connection: with a pool of one they do not wait for it")
        func bodyUsesLockConnection() async throws {
            let store = try await StoreFixtures.store(poolSize: 1, lockTimeout: .seconds(2))
            let saved = try await store.withExclusiveAccess(to: "k") { access -> AuthState? in
                #expect(try await access.load() == nil)
                try await access.write(StoreFixtures.state())
                return try await access.load()
            }
            #expect(saved == StoreFixtures.state())
            #expect(try await store.keys() == ["k"])
            await store.close()
        }

        @Test("A save under the lock is committed before it returns: another connection reads it during the body")
        func saveCommitsBeforeReturning() async throws {
            let table = StoreFixtures.uniqueTable()
            let store = try await StoreFixtures.store(table: table)
            let reader = try Self.peer(of: table)
            let seen = try await store.withExclusiveAccess(to: "k") { access -> AuthState? in
                try await access.write(StoreFixtures.state(access: "at-new"))
                return try await reader.load(key: "k")
            }
            #expect(seen?.accessToken == AccessToken("at-new"))
            await store.close()
            await reader.close()
        }

        @Test("Two connections never run bodies for the same key at once; other keys do not wait")
        func bodiesExcludeEachOther() async throws {
            let table = StoreFixtures.uniqueTable()
            let stores =
                [try await StoreFixtures.store(table: table, lockTimeout: StoreFixtures.patientLockTimeout)]
                + (try (0..<3).map { _ in try Self.peer(of: table) })
            let events = Recorder<String>()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, store) in stores.enumerated() {
                    for round in 0..<5 {
                        group.addTask {
                            try await store.withExclusiveAccess(to: "shared") { _ in
                                events.record("enter")
                                try await Task.sleep(for: .milliseconds(5))
                                events.record("leave")
                            }
                            _ = try await store.withExclusiveAccess(to: "own-\(index)-\(round)") { _ in true }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let all = events.all
            #expect(all.count == 40)
            #expect(
                all == Array(repeating: ["enter", "leave"], count: 20).flatMap { $0 }, "bodies interleaved: \(all)")
            for store in stores { await store.close() }
        }

        @Test("A lock held past the lock timeout gives a transient lockTimeout error and runs nothing")
        func lockTimeout() async throws {
            let table = StoreFixtures.uniqueTable()
            let holder = try await StoreFixtures.store(table: table)
            let waiter = try Self.peer(of: table, lockTimeout: .milliseconds(200))
            let ran = Recorder<String>()
            try await holder.withExclusiveAccess(to: "k") { _ in
                let error = await #expect(throws: PostgresSessionStoreError.self) {
                    try await waiter.withExclusiveAccess(to: "k") { _ in ran.record("waiter") }
                }
                #expect(error?.kind == .lockTimeout)
                #expect(error?.isTransient == true)
            }
            #expect(ran.all.isEmpty)
            try await waiter.withExclusiveAccess(to: "k") { _ in ran.record("waiter") }
            #expect(ran.all == ["waiter"], "the lock is free once its holder is done")
            await holder.close()
            await waiter.close()
        }

        @Test("A lock whose body could not start (no table yet) is released, not left on a pooled connection")
        func failedAcquireReleasesLock() async throws {
            let table = StoreFixtures.uniqueTable()
            let early = try PostgresSessionStore(
                connectionString: try PostgresTestServer.running.connectionString, table: table, poolSize: 1)
            let error = await #expect(throws: PostgresSessionStoreError.self) {
                try await early.withExclusiveAccess(to: "k") { _ in Issue.record("the body ran without a table") }
            }
            #expect(error?.kind == .schemaMissing)
            try await early.prepareSchema()
            // `early`'s one connection sits idle in its pool; had it kept the lock, this would time out.
            let peer = try Self.peer(of: table, lockTimeout: .milliseconds(500))
            #expect(try await peer.withExclusiveAccess(to: "k") { _ in true })
            await early.close()
            await peer.close()
        }

        @Test("A dead holder's lease, its lock gone with its connection, keeps a waiter out until it runs out")
        func deadHolderLeaseRunsOut() async throws {
            let table = StoreFixtures.uniqueTable()
            let waiter = try await StoreFixtures.store(table: table, lockTimeout: .seconds(8))
            try await waiter.save(StoreFixtures.state(), key: "k")
            // What a process killed while it held the lock leaves: a lease of a second, and no lock.
            let raw = try RawSQL(try PostgresTestServer.running.connectionString)
            try raw.query(
                "UPDATE \(table) SET lease_owner = 'killed', lease_taken_at = clock_timestamp(), "
                    + "lease_until = clock_timestamp() + interval '1 second'")
            let started = ContinuousClock.now
            try await waiter.withExclusiveAccess(to: "k") { access in
                try await access.write(StoreFixtures.state(access: "at-waiter"))
            }
            #expect(ContinuousClock.now - started >= .milliseconds(900), "the waiter waited for the lease")
            #expect(try await waiter.load(key: "k")?.accessToken == AccessToken("at-waiter"))
            #expect(try raw.query("SELECT lease_owner FROM \(table)") == [nil], "the waiter's own lease was cleared")
            await waiter.close()
        }

        @Test("A holder whose lock's connection was ended keeps its lease, and saves on its own reconnected place")
        func holderOutlivesItsConnection() async throws {
            let table = StoreFixtures.uniqueTable()
            // A lease much shorter than the body: only its renewal keeps the waiter out.
            let holder = try await StoreFixtures.store(table: table, poolSize: 1, lockTimeout: .seconds(4))
            let waiter = try Self.peer(of: table, lockTimeout: .seconds(20))
            try await holder.save(StoreFixtures.state(), key: "k")
            let raw = try RawSQL(try PostgresTestServer.running.connectionString)
            let read = Task<AuthState?, any Error> {
                try await Task.sleep(for: .milliseconds(200))
                return try await waiter.withExclusiveAccess(to: "k") { access in try await access.load() }
            }
            try await holder.withExclusiveAccess(to: "k") { access in
                #expect(try raw.terminateLockHolder(table: table, key: "k") == 1)
                try await Task.sleep(for: .seconds(7))
                try await access.write(StoreFixtures.state(access: "at-rotated", refresh: "rt-rotated"))
            }
            #expect(try await read.value == StoreFixtures.state(access: "at-rotated", refresh: "rt-rotated"))
            #expect(try raw.query("SELECT lease_owner FROM \(table)") == [nil], "the lease was cleared")
            await holder.close()
            await waiter.close()
        }

        @Test("Two sessions of two stores sharing a table refresh an expired grant once between them")
        func authSessionsRefreshOnce() async throws {
            let table = StoreFixtures.uniqueTable()
            let first = try await StoreFixtures.store(table: table)
            let second = try Self.peer(of: table)
            let expired = StoreFixtures.state(expiresAt: StoreFixtures.epoch)
            try await first.save(expired, key: "user-1")
            let clock = TestClock(StoreFixtures.epoch.addingTimeInterval(60))
            let transport = RecordingTransport(
                replies: [.json(200, StoreFixtures.tokenResponse(access: "at-2", refresh: "rt-2"))],
                responseDelay: .milliseconds(50))
            var sessions: [AuthSession] = []
            for store in [first, second, first, second] {
                sessions.append(
                    try #require(
                        try await AuthSession.restore(
                            key: "user-1", from: store, transport: transport, clock: clock.wallClock)))
            }
            let tokens = try await withThrowingTaskGroup(of: AccessToken.self) { group in
                for session in sessions { group.addTask { try await session.validAccessToken() } }
                return try await group.reduce(into: [AccessToken]()) { $0.append($1) }
            }
            #expect(tokens == Array(repeating: AccessToken("at-2"), count: 4))
            #expect(await transport.requests(toPathEnding: "/token").count == 1)
            #expect(try await second.load(key: "user-1")?.refreshToken == RefreshToken("rt-2"))
            await first.close()
            await second.close()
        }
    }
}
