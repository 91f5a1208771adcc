import Bearer
import BearerPostgres
import BearerTestSupport
import Foundation
import Testing

extension SharedPostgresServer {
    /// One lock per session whatever the table's spelling, keys that do not collide, turns that keep
    /// one busy key from starving the others, and waits that end when their task is cancelled.
    @Suite(
        "PostgresSessionStore: one lock per session, fair and cancellable waits",
        .enabled(if: PostgresTestServer.isInstalled, PostgresTestServer.skipReason))
    struct PostgresLockIdentityTests {
        private static func store(
            _ table: String, poolSize: Int = 4, lockTimeout: Duration = StoreFixtures.patientLockTimeout
        ) throws
            -> PostgresSessionStore
        {
            try PostgresSessionStore(
                connectionString: try PostgresTestServer.running.connectionString, table: table, poolSize: poolSize,
                lockTimeout: lockTimeout)
        }

        @Test("Two spellings of one table share one lock: their bodies never overlap")
        func spellingsShareLock() async throws {
            let table = StoreFixtures.uniqueTable()
            try await StoreFixtures.store(table: table).close()
            let stores = try [table, "public.\(table)", table, "public.\(table)"].map { try Self.store($0) }
            let events = Recorder<String>()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for store in stores {
                    for _ in 0..<5 {
                        group.addTask {
                            try await store.withExclusiveAccess(to: "k") { _ in
                                events.record("enter")
                                try await Task.sleep(for: .milliseconds(5))
                                events.record("leave")
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(events.all == Array(repeating: ["enter", "leave"], count: 20).flatMap { $0 })
            for store in stores { await store.close() }
        }

        @Test("A reserved word is a table name like any other; malformed names are refused up front")
        func tableNames() async throws {
            let reserved = try await StoreFixtures.store(table: "user")
            try await reserved.save(StoreFixtures.state(), key: "k")
            #expect(
                try await reserved.withExclusiveAccess(to: "k") { access in try await access.load() }
                    == StoreFixtures.state())
            #expect(try PostgresSessionStore.schemaSQL(table: "user").contains(#"CREATE TABLE IF NOT EXISTS "user" ("#))
            // The same table, quoted: it reads the same row.
            let quoted = try Self.store(#""public"."user""#)
            #expect(try await quoted.load(key: "k") == StoreFixtures.state())
            await quoted.close()
            try await reserved.remove(key: "k")
            await reserved.close()
            for name in [
                "", "Sessions", "a.b.c", "a b", "1abc", "\"a\"b\"", "\"\"", String(repeating: "a", count: 64), "a;drop",
            ] {
                #expect(throws: PostgresSessionStoreError.self, "\(name)") {
                    try PostgresSessionStore.schemaSQL(table: name)
                }
                let error = #expect(throws: PostgresSessionStoreError.self, "\(name)") { try Self.store(name) }
                #expect(error?.kind == .invalidConfiguration)
            }
        }

        @Test("Two keys whose 32-bit hashes collide have locks of their own, and one task can hold both")
        func collidingKeysDoNotShareLock() async throws {
            let raw = try RawSQL(try PostgresTestServer.running.connectionString)
            let pair = try await raw.slowQuery(
                """
                SELECT string_agg(key, ',') FROM (SELECT 'user-' || n AS key FROM generate_series(0, 999999) AS n) AS keys
                GROUP BY hashtext(key) HAVING count(*) > 1 LIMIT 1
                """)
            let keys = try #require(pair.first??.split(separator: ",").map(String.init))
            #expect(keys.count == 2)
            let table = StoreFixtures.uniqueTable()
            let first = try await StoreFixtures.store(table: table)
            let second = try Self.store(table, lockTimeout: .seconds(1))
            let (other, both) = try await first.withExclusiveAccess(to: keys[0]) { _ in
                (
                    try await second.withExclusiveAccess(to: keys[1]) { _ in true },
                    try await first.withExclusiveAccess(to: keys[1]) { _ in true }
                )
            }
            #expect(other, "another store took the colliding key while the first was held")
            #expect(both, "one task held both keys")
            await first.close()
            await second.close()
        }

        @Test("Tasks waiting for one busy key take turns without filling the pool: other keys' loads go on")
        func hotKeyDoesNotStarveOthers() async throws {
            let table = StoreFixtures.uniqueTable()
            let store = try await StoreFixtures.store(
                table: table, poolSize: 2, lockTimeout: StoreFixtures.patientLockTimeout)
            try await store.save(StoreFixtures.state(), key: "other")
            let order = Recorder<String>()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await store.withExclusiveAccess(to: "hot") { _ in
                        order.record("holding")
                        while order.all.filter({ $0 == "other loaded" }).count < 5 {
                            try await Task.sleep(for: .milliseconds(10))
                        }
                        order.record("released")
                    }
                }
                while order.all.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
                for _ in 0..<12 {
                    group.addTask { try await store.withExclusiveAccess(to: "hot") { _ in order.record("waiter") } }
                }
                try await Task.sleep(for: .milliseconds(200))
                for _ in 0..<5 {
                    #expect(try await store.load(key: "other") == StoreFixtures.state())
                    order.record("other loaded")
                }
                try await group.waitForAll()
            }
            let all = order.all
            #expect(Array(all.prefix(7)) == ["holding"] + Array(repeating: "other loaded", count: 5) + ["released"])
            #expect(all.filter { $0 == "waiter" }.count == 12)
            await store.close()
        }

        @Test("A task cancelled while it waits for a lock or a connection stops waiting, and its body never runs")
        func cancelledWaiters() async throws {
            let table = StoreFixtures.uniqueTable()
            let store = try await StoreFixtures.store(table: table, poolSize: 1, lockTimeout: .seconds(600))
            let peer = try Self.store(table, lockTimeout: .seconds(600))
            let order = Recorder<String>()
            try await store.withExclusiveAccess(to: "k") { access in
                // Tasks of their own, waiting while this body holds the lock.
                let forLock = Task.detached {
                    try await peer.withExclusiveAccess(to: "k") { _ in order.record("peer body") }
                }
                let forTurn = Task.detached {
                    try await store.withExclusiveAccess(to: "k") { _ in order.record("own body") }
                }
                // The pool's one connection holds the lock, so another key's load waits for it.
                let forConnection = Task.detached { try await store.load(key: "other") }
                try await Task.sleep(for: .milliseconds(300))
                for task in [forLock, forTurn] { task.cancel() }
                forConnection.cancel()
                for task in [forLock, forTurn] {
                    let outcome = await task.result
                    #expect(throws: CancellationError.self) { try outcome.get() }
                }
                let loaded = await forConnection.result
                #expect(throws: CancellationError.self) { try loaded.get() }
                order.record("holder done")
            }
            #expect(order.all == ["holder done"])
            #expect(try await peer.withExclusiveAccess(to: "k") { _ in true }, "the lock is free for the next")
            await store.close()
            await peer.close()
        }

        @Test("A try that fails after it took the lock leaves no lock behind on a pooled connection")
        func failedTryLeavesNoLock() async throws {
            let table = StoreFixtures.uniqueTable()
            let store = try await StoreFixtures.store(table: table, poolSize: 1, lockTimeout: .seconds(2))
            try await store.save(StoreFixtures.state(), key: "k")
            // The lease's update fails inside the statement that has just taken the advisory lock.
            let raw = try RawSQL(try PostgresTestServer.running.connectionString)
            try raw.query(
                """
                CREATE FUNCTION \(table)_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'refused by the test'; END $$;
                CREATE TRIGGER refuse BEFORE UPDATE ON \(table) FOR EACH ROW EXECUTE FUNCTION \(table)_refuse();
                """)
            let error = await #expect(throws: PostgresSessionStoreError.self) {
                try await store.withExclusiveAccess(to: "k") { _ in Issue.record("the body ran") }
            }
            #expect(error?.kind == .serverError, "\(String(describing: error))")
            try raw.query("DROP TRIGGER refuse ON \(table)")
            #expect(try raw.lockHolders(table: table, key: "k") == 0, "no connection holds the lock")
            let peer = try Self.store(table, lockTimeout: .seconds(1))
            #expect(try await peer.withExclusiveAccess(to: "k") { _ in true })
            await store.close()
            await peer.close()
        }

        @Test(
            "A row first saved under the lock is leased by that save: the holder saves again after its connection ends")
        func newRowIsLeased() async throws {
            let table = StoreFixtures.uniqueTable()
            let holder = try await StoreFixtures.store(table: table, poolSize: 1, lockTimeout: .seconds(4))
            let waiter = try Self.store(table, lockTimeout: .seconds(20))
            let raw = try RawSQL(try PostgresTestServer.running.connectionString)
            let order = Recorder<String>()
            let read = Task<AuthState?, any Error> {
                while order.all.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
                return try await waiter.withExclusiveAccess(to: "new") { access in
                    order.record("waiter")
                    return try await access.load()
                }
            }
            try await holder.withExclusiveAccess(to: "new") { access in
                try await access.write(StoreFixtures.state())
                #expect(try raw.terminateLockHolder(table: table, key: "new") == 1)
                order.record("ended")
                try await Task.sleep(for: .seconds(7))
                try await access.write(StoreFixtures.state(access: "at-2", refresh: "rt-2"))
                order.record("saved")
            }
            #expect(try await read.value == StoreFixtures.state(access: "at-2", refresh: "rt-2"))
            #expect(order.all == ["ended", "saved", "waiter"])
            await holder.close()
            await waiter.close()
        }
    }
}
