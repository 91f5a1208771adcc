import Bearer
import BearerPostgres
import BearerTestSupport
import Foundation
import Testing

extension SharedPostgresServer {
    /// The store reached over TCP through ``FaultProxy``: a man in the middle that strips TLS, a
    /// network that stalls, connections reset under a holder.
    @Suite(
        "PostgresSessionStore: TLS by default, and a stalled or reset network",
        .enabled(if: PostgresTestServer.isInstalled, PostgresTestServer.skipReason))
    struct PostgresNetworkFaultTests {
        @Test("Over TCP the store requires verified TLS unless told otherwise: a TLS-stripping proxy gets nothing")
        func strippedTLSRefused() async throws {
            let proxy = try FaultProxy(to: try PostgresTestServer.running, strippingTLS: true)
            defer { proxy.stop() }
            let store = try PostgresSessionStore(
                connectionString: proxy.connectionString(), table: StoreFixtures.uniqueTable())
            let error = await #expect(throws: PostgresSessionStoreError.self) { try await store.prepareSchema() }
            #expect(error?.kind == .connectionFailed)
            #expect(error?.isTransient == false, "a refused TLS needs a setting changed, not time")
            #expect("\(String(describing: error))".contains("SSL"), "\(String(describing: error))")
            let refusals = proxy.tlsRefusals
            #expect(refusals.requests >= 1, "the store asked for TLS")
            #expect(refusals.bytesAfter == 0, "nothing was sent in clear text after TLS was refused")

            // An app that lowers TLS explicitly gets what it asked for: the proxy then sees everything.
            let lowered = try PostgresSessionStore(
                connectionString: proxy.connectionString("sslmode=prefer"), table: StoreFixtures.uniqueTable())
            try await lowered.prepareSchema()
            #expect(proxy.tlsRefusals.bytesAfter > 0)
            await store.close()
            await lowered.close()
        }

        @Test("A stalled network ends a call with a transient error, and the pool recovers", .timeLimit(.minutes(1)))
        func stalledNetworkEndsCall() async throws {
            let proxy = try FaultProxy(to: try PostgresTestServer.running)
            defer { proxy.stop() }
            let table = StoreFixtures.uniqueTable()
            let store = try PostgresSessionStore(
                connectionString: proxy.connectionString("sslmode=disable"), table: table, poolSize: 1,
                lockTimeout: .seconds(2))
            try await store.prepareSchema()
            try await store.save(StoreFixtures.state(), key: "k")
            proxy.set(.stalled)
            // The proxy stays stalled until the call has ended: a call that waited for the network
            // would never end, and the time limit would fail the test.
            let error = await #expect(throws: PostgresSessionStoreError.self) { try await store.load(key: "k") }
            #expect(error?.kind == .connectionLost, "\(String(describing: error))")
            #expect(error?.isTransient == true)
            proxy.set(.passing)
            #expect(try await store.load(key: "k") == StoreFixtures.state())
            await store.close()
        }

        @Test("A call cancelled while the network stalls ends at once with CancellationError", .timeLimit(.minutes(1)))
        func cancelledDuringStall() async throws {
            let proxy = try FaultProxy(to: try PostgresTestServer.running)
            defer { proxy.stop() }
            let store = try PostgresSessionStore(
                connectionString: proxy.connectionString("sslmode=disable"), table: StoreFixtures.uniqueTable(),
                poolSize: 1, lockTimeout: .seconds(600))
            try await store.prepareSchema()
            proxy.set(.stalled)
            let call = Task { try await store.load(key: "k") }
            try await Task.sleep(for: .milliseconds(300))
            call.cancel()
            let outcome = await call.result
            #expect(throws: CancellationError.self) { try outcome.get() }
            proxy.set(.passing)
            #expect(try await store.load(key: "k") == nil, "the pool replaced the connection it gave up")
            await store.close()
        }

        @Test("Connections reset under a holder: it keeps its lease, saves on its own place, and the waiter reads that")
        func resetUnderHolder() async throws {
            let proxy = try FaultProxy(to: try PostgresTestServer.running)
            defer { proxy.stop() }
            let table = StoreFixtures.uniqueTable()
            let waiter = try await StoreFixtures.store(table: table, lockTimeout: .seconds(20))
            let holder = try PostgresSessionStore(
                connectionString: proxy.connectionString("sslmode=disable"), table: table, poolSize: 1,
                lockTimeout: .seconds(4))
            try await waiter.save(StoreFixtures.state(), key: "k")
            let order = Recorder<String>()
            let read = Task<AuthState?, any Error> {
                while order.all.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
                return try await waiter.withExclusiveAccess(to: "k") { access in
                    order.record("waiter")
                    return try await access.load()
                }
            }
            try await holder.withExclusiveAccess(to: "k") { access in
                proxy.resetConnections()
                order.record("reset")
                // Longer than a lease: only the renewals on the reconnected place keep the waiter out.
                try await Task.sleep(for: .seconds(7))
                try await access.write(StoreFixtures.state(access: "at-rotated", refresh: "rt-rotated"))
                order.record("saved")
            }
            #expect(try await read.value == StoreFixtures.state(access: "at-rotated", refresh: "rt-rotated"))
            #expect(order.all == ["reset", "saved", "waiter"])
            await holder.close()
            await waiter.close()
        }
    }
}
