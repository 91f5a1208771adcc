import Bearer
import BearerPostgres
import CLibPQ
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The PostgreSQL session store, against a server scripts/bench starts (scripts/postgres-server).
enum PostgresBenchmarks {
    /// Restoring a fresh session from the store and stamping the first request, against the sum
    /// of a bare libpq SELECT of the same row on the same server and decoding that row's session
    /// by hand (what any store must do at least); and, against the bare SELECT, that SELECT sent
    /// without blocking and awaited on a poller thread (``ReadinessPoller``): the floor of any
    /// store that never blocks a thread of Swift's cooperative pool, decoding nothing.
    static func restore(connection: String, base: URL, repeats: Int) async throws -> [Figure] {
        let store = try PostgresSessionStore(connectionString: connection, table: "bench_sessions")
        try await store.prepareSchema()
        let state = Benchmarks.state(base, expiresAt: Date().addingTimeInterval(3600))
        try await store.save(state, key: "bench")
        let encoded = try state.encoded()
        let transport = URLSessionTransport()
        let request = URLRequest(url: base.appendingPathComponent("resource"))
        let raw = try connect(connection)
        defer { PQfinish(raw) }
        let nonBlocking = try connect(connection)
        defer { PQfinish(nonBlocking) }
        let poller = ReadinessPoller.start()
        if poller != nil { guard PQsetnonblocking(nonBlocking, 1) == 0 else { throw BenchmarkFailure("libpq") } }
        let rounds = 200
        var stores: [Double] = []
        var bare: [Double] = []
        var polled: [Double] = []
        var decoded: [Double] = []
        for _ in 0..<repeats {
            stores.append(
                try await Measure.seconds {
                    for _ in 0..<rounds {
                        guard
                            let session = try await AuthSession.restore(key: "bench", from: store, transport: transport)
                        else { throw BenchmarkFailure("the session was not restored") }
                        _ = try await session.authorize(request)
                    }
                } / Double(rounds))
            bare.append(
                try await Measure.seconds {
                    for _ in 0..<rounds { try select(raw) }
                } / Double(rounds))
            decoded.append(
                try await Measure.seconds {
                    for _ in 0..<rounds { _ = try AuthState(encoded: encoded) }
                } / Double(rounds))
            if let poller {
                polled.append(
                    try await Measure.seconds {
                        for _ in 0..<rounds { try await select(nonBlocking, awaitingWith: poller) }
                    } / Double(rounds))
            }
        }
        await store.close()
        let value = Measure.median(stores) * 1e6
        let baseline = Measure.median(bare) * 1e6
        let floor = baseline + Measure.median(decoded) * 1e6
        var figures = [
            Figure(
                name: "restore + first authorize from PostgresSessionStore",
                value: value, unit: "µs", baseline: floor,
                baselineName: "bare libpq SELECT of the same row + decoding its session by hand",
                ratio: value / floor, target: "≤ 1.2×", meetsTarget: value / floor <= 1.2)
        ]
        if !polled.isEmpty {
            let awaited = Measure.median(polled) * 1e6
            figures.append(
                Figure(
                    name: "the same SELECT awaited off the cooperative pool (epoll), decoding nothing",
                    value: awaited, unit: "µs", baseline: baseline, baselineName: "bare libpq SELECT of the same row",
                    ratio: awaited / baseline, target: nil, meetsTarget: nil))
        }
        return figures
    }

    private static func connect(_ connection: String) throws -> OpaquePointer {
        guard let raw = PQconnectdb(connection) else { throw BenchmarkFailure("libpq could not connect") }
        guard PQstatus(raw) == CONNECTION_OK else {
            PQfinish(raw)
            throw BenchmarkFailure("libpq could not connect")
        }
        return raw
    }

    /// Sends the row's SELECT (binary parameter and result); `true` when libpq took it.
    private static func sendSelect(_ connection: OpaquePointer) -> Bool {
        let key = Array("bench".utf8)
        return key.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                var values: [UnsafePointer<CChar>?] = [chars.baseAddress]
                var lengths: [Int32] = [Int32(key.count)]
                var formats: [Int32] = [1]
                return PQsendQueryParams(
                    connection, "SELECT state, sealed FROM bench_sessions WHERE key = $1::text", 1, nil, &values,
                    &lengths, &formats, 1) == 1
            }
        }
    }

    /// The SELECT on the calling thread, blocking it until the answer arrives.
    private static func select(_ connection: OpaquePointer) throws {
        guard sendSelect(connection) else { throw BenchmarkFailure("the bare SELECT failed") }
        var rows: Int32 = -1
        while let result = PQgetResult(connection) {
            defer { PQclear(result) }
            rows = try readRow(result)
        }
        guard rows == 1 else { throw BenchmarkFailure("the SELECT found no row") }
    }

    /// The SELECT sent without blocking, its answer awaited on `poller`: no libpq call here waits.
    private static func select(_ connection: OpaquePointer, awaitingWith poller: ReadinessPoller) async throws {
        guard sendSelect(connection), PQflush(connection) == 0 else {
            throw BenchmarkFailure("the non-blocking SELECT was not sent at once")
        }
        let socket = PQsocket(connection)
        var rows: Int32 = -1
        while true {
            // PQgetResult only when it cannot block: until the answer's end (ReadyForQuery) has come.
            while PQisBusy(connection) == 1 {
                guard await poller.readable(socket) else { throw BenchmarkFailure("epoll could not watch the socket") }
                guard PQconsumeInput(connection) == 1 else { throw BenchmarkFailure("the non-blocking SELECT failed") }
            }
            guard let result = PQgetResult(connection) else { break }
            defer { PQclear(result) }
            rows = try readRow(result)
        }
        guard rows == 1 else { throw BenchmarkFailure("the SELECT found no row") }
    }

    /// Copies the one row's state, as a store must before decoding it; the number of rows.
    private static func readRow(_ result: OpaquePointer) throws -> Int32 {
        guard PQresultStatus(result) == PGRES_TUPLES_OK else { throw BenchmarkFailure("the SELECT failed") }
        let rows = PQntuples(result)
        if rows == 1 { _ = Data(bytes: PQgetvalue(result, 0, 0), count: Int(PQgetlength(result, 0, 0))) }
        return rows
    }

    /// 1,000 stale sessions refreshed concurrently by 4 processes, each of which asks for every
    /// session: refreshes per second, and token requests per grant.
    static func fleetRefresh(connection: String, worker: String, base: URL) async throws -> [Figure] {
        let sessions = 1000
        let table = "bench_fleet"
        let store = try PostgresSessionStore(connectionString: connection, table: table, poolSize: 8)
        try await store.prepareSchema()
        for key in try await store.keys() { try await store.remove(key: key) }
        for index in 0..<sessions {
            var state = Benchmarks.state(base, expiresAt: .distantPast)
            state.refreshToken = RefreshToken("bench-refresh-\(index)")
            try await store.save(state, key: "stale-\(index)")
        }
        let before = try await tokenRequests(base)
        let resource = base.appendingPathComponent("resource").absoluteString
        let seconds = try await Measure.seconds {
            var children: [pid_t] = []
            for _ in 0..<4 {
                children.append(
                    try Measure.spawn(
                        worker, ["refresh", connection, table, "stale-", "0", "\(sessions)", "16", resource],
                        discardingErrors: false))
            }
            for child in children {
                var status: Int32 = 0
                while waitpid(child, &status, 0) == -1 && errno == EINTR {}
                guard status == 0 else { throw BenchmarkFailure("a fleet worker failed") }
            }
        }
        let requests = try await tokenRequests(base) - before
        var refreshed = 0
        for index in 0..<sessions {
            let stored = try await store.load(key: "stale-\(index)")
            if stored?.refreshToken != RefreshToken("bench-refresh-\(index)") { refreshed += 1 }
        }
        await store.close()
        return [
            Figure(
                name: "1,000 stale sessions, 4 processes: refreshes per second", value: Double(refreshed) / seconds,
                unit: "refreshes/s", baseline: nil, baselineName: nil, ratio: nil, target: nil, meetsTarget: nil),
            Figure(
                name: "1,000 stale sessions, 4 processes: token requests per grant",
                value: Double(requests) / Double(sessions), unit: "requests", baseline: nil, baselineName: nil,
                ratio: nil, target: "= 1, every session refreshed",
                meetsTarget: requests == sessions && refreshed == sessions),
        ]
    }

    private static func tokenRequests(_ base: URL) async throws -> Int {
        let response = try await URLSessionTransport().send(
            TransportRequest(url: base.appendingPathComponent("control/stats")))
        // The server's other figure, `last_answer_sent_at`, is a time or null: only the count is read.
        struct Stats: Decodable {
            let tokenRequests: Int
            enum CodingKeys: String, CodingKey { case tokenRequests = "token_requests" }
        }
        return try JSONDecoder().decode(Stats.self, from: response.body).tokenRequests
    }
}
