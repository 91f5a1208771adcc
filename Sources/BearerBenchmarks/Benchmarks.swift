import Bearer
@_spi(Benchmarks) @_spi(Internals) import BearerCore
import BearerMigration
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Counts the requests a transport sends.
actor CountingTransport: HTTPTransport {
    private let base: URLSessionTransport
    private(set) var count = 0

    init(_ base: URLSessionTransport) {
        self.base = base
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        count += 1
        return try await base.send(request)
    }
}

enum Benchmarks {
    static func server(_ base: URL) -> AuthorizationServer {
        AuthorizationServer(
            issuer: base,
            authorizationEndpoint: base.appendingPathComponent("authorize"),
            tokenEndpoint: base.appendingPathComponent("token"),
            allowsInsecureLoopback: true
        )
    }

    static func state(_ base: URL, expiresAt: Date) -> AuthState {
        AuthState(
            server: server(base),
            client: Client(id: "bench", redirectURI: base.appendingPathComponent("callback")),
            accessToken: AccessToken("bench-access-token-0123456789"),
            accessTokenExpiresAt: expiresAt,
            accessTokenLifetime: 3600,
            refreshToken: RefreshToken("bench-refresh-token"),
            grantedScopes: ["email"]
        )
    }

    /// `authorize` on a fresh session vs setting the same header by hand.
    static func authorize(base: URL, repeats: Int) async throws -> Figure {
        let calls = 200_000
        let session = try await AuthSession.save(
            state(base, expiresAt: Date().addingTimeInterval(3600)),
            to: InMemorySessionStore(),
            key: "bench",
            transport: URLSessionTransport()
        )
        let request = URLRequest(url: base.appendingPathComponent("resource"))
        var sink = 0
        let library = try await Measure.medianSeconds(repeats: repeats) {
            for _ in 0..<calls {
                let authorized = try await session.authorize(request)
                sink &+= authorized.httpMethod?.count ?? 0
            }
        }
        let token = "bench-access-token-0123456789"
        let byHand = await Measure.medianSeconds(repeats: repeats) {
            for _ in 0..<calls {
                var authorized = request
                authorized.setValue("Bearer " + token, forHTTPHeaderField: "Authorization")
                sink &+= authorized.httpMethod?.count ?? 0
            }
        }
        precondition(sink != 42)
        let perCall = library / Double(calls) * 1e9
        let baseline = byHand / Double(calls) * 1e9
        let ratio = perCall / baseline
        return Figure(
            name: "authorize, fresh session",
            value: perCall,
            unit: "ns/call",
            baseline: baseline,
            baselineName: "URLRequest.setValue by hand",
            ratio: ratio,
            target: "≤ 1000 ns and ≤ 5×",
            meetsTarget: perCall <= 1000 && ratio <= 5
        )
    }

    /// 10,000 concurrent `authorize` calls on an expired session: token requests and wall time
    /// relative to one refresh round trip.
    static func concurrentRefresh(base: URL, repeats: Int) async throws -> [Figure] {
        var requestCounts: [Int] = []
        var walls: [Double] = []
        var roundTrips: [Double] = []
        let resource = URLRequest(url: base.appendingPathComponent("resource"))
        for _ in 0..<repeats {
            let single = try await AuthSession.save(
                state(base, expiresAt: .distantPast),
                to: InMemorySessionStore(),
                key: "bench",
                transport: URLSessionTransport()
            )
            roundTrips.append(try await Measure.seconds { _ = try await single.authorize(resource) })

            let transport = CountingTransport(URLSessionTransport())
            let session = try await AuthSession.save(
                state(base, expiresAt: .distantPast),
                to: InMemorySessionStore(),
                key: "bench",
                transport: transport
            )
            walls.append(
                try await Measure.seconds {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for _ in 0..<10_000 {
                            group.addTask { _ = try await session.authorize(resource) }
                        }
                        try await group.waitForAll()
                    }
                }
            )
            requestCounts.append(await transport.count)
        }
        let wall = Measure.median(walls)
        let roundTrip = Measure.median(roundTrips)
        return [
            Figure(
                name: "10,000 concurrent authorize on an expired session: token requests",
                value: Double(requestCounts.max() ?? -1),
                unit: "requests",
                baseline: nil,
                baselineName: nil,
                ratio: nil,
                target: "= 1 in every run",
                meetsTarget: requestCounts.allSatisfy { $0 == 1 }
            ),
            Figure(
                name: "10,000 concurrent authorize on an expired session: wall time",
                value: wall * 1000,
                unit: "ms",
                baseline: roundTrip * 1000,
                baselineName: "one refresh round trip (ms)",
                ratio: wall / roundTrip,
                target: nil,
                meetsTarget: nil
            ),
        ]
    }

    /// Authorized GETs through `data(for:)` vs plain URLSession with a fixed header.
    static func authorizedRequests(base: URL, repeats: Int) async throws -> Figure {
        let count = 2000
        let url = base.appendingPathComponent("resource")
        let session = try await AuthSession.save(
            state(base, expiresAt: Date().addingTimeInterval(3600)),
            to: InMemorySessionStore(),
            key: "bench",
            transport: URLSessionTransport(configuration: .default)
        )
        let plain = URLSession(configuration: .default)
        var libraryRates: [Double] = []
        var plainRates: [Double] = []
        for _ in 0..<repeats {
            let library = try await Measure.seconds {
                for _ in 0..<count {
                    let (_, response) = try await session.data(for: URLRequest(url: url))
                    guard response.statusCode == 200 else { throw BenchmarkFailure("HTTP \(response.statusCode)") }
                }
            }
            let baseline = try await Measure.seconds {
                for _ in 0..<count {
                    var request = URLRequest(url: url)
                    request.setValue("Bearer bench-access-token-0123456789", forHTTPHeaderField: "Authorization")
                    let (_, response) = try await plain.data(for: request)
                    guard (response as? HTTPURLResponse)?.statusCode == 200 else {
                        throw BenchmarkFailure("HTTP error")
                    }
                }
            }
            libraryRates.append(Double(count) / library)
            plainRates.append(Double(count) / baseline)
        }
        let rate = Measure.median(libraryRates)
        let baseline = Measure.median(plainRates)
        return Figure(
            name: "authorized GETs through data(for:)",
            value: rate,
            unit: "requests/s",
            baseline: baseline,
            baselineName: "URLSession with a fixed header (requests/s)",
            ratio: rate / baseline,
            target: "≥ 0.95× the baseline",
            meetsTarget: rate / baseline >= 0.95
        )
    }

    /// Legacy sessions decoded per second.
    static func migrations(repeats: Int) async throws -> [Figure] {
        guard let redirect = URL(string: "com.example.app:/oauth2callback") else { throw BenchmarkFailure("bad URL") }
        let client = Client(id: "bench.apps.googleusercontent.com", redirectURI: redirect)
        let string =
            "access_token=ya29.bench&refresh_token=1%2Fbench-refresh&scope=https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fdrive"
            + "&serviceProvider=Google&userEmail=bench%40example.com&userEmailIsVerified=y&userID=123456789"
        var source = try GTMOAuth2PersistenceString.decode(string, server: .google, client: client)
        source.accessTokenExpiresAt = Date(timeIntervalSince1970: 1_800_000_000)
        let archive = GTMAppAuthArchive.encode(source)
        let count = 20_000
        let stringSeconds = try await Measure.medianSeconds(repeats: repeats) {
            for _ in 0..<count { _ = try GTMOAuth2PersistenceString.decode(string, server: .google, client: client) }
        }
        let archiveSeconds = try await Measure.medianSeconds(repeats: repeats) {
            for _ in 0..<count / 4 { _ = try GTMAppAuthArchive.decode(archive) }
        }
        return [
            Figure(
                name: "GTMOAuth2 strings read",
                value: Double(count) / stringSeconds,
                unit: "sessions/s",
                baseline: nil,
                baselineName: nil,
                ratio: nil,
                target: nil,
                meetsTarget: nil
            ),
            Figure(
                name: "GTMAppAuth keyed archives read (\(archive.count) bytes)",
                value: Double(count / 4) / archiveSeconds,
                unit: "sessions/s",
                baseline: nil,
                baselineName: nil,
                ratio: nil,
                target: nil,
                meetsTarget: nil
            ),
        ]
    }

    /// SHA-256 throughput vs `sha256sum` on the same data.
    static func sha256(repeats: Int) async throws -> Figure {
        let size = 64 << 20
        var generator = SystemRandomNumberGenerator()
        let data = (0..<size / 8).flatMap { _ -> [UInt8] in
            let value = generator.next()
            return (0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bearer-bench-\(UUID().uuidString).bin")
        try Data(data).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var sink: UInt8 = 0
        let ours = await Measure.medianSeconds(repeats: repeats) { sink ^= SHA256.hash(data)[0] }
        precondition(sink != 1 || sink == 1)
        let tool =
            FileManager.default.isExecutableFile(atPath: "/usr/bin/sha256sum")
            ? "/usr/bin/sha256sum" : "/usr/bin/shasum"
        let arguments = tool.hasSuffix("shasum") ? ["-a", "256", file.path] : [file.path]
        var toolTimes: [Double] = []
        for _ in 0..<repeats {
            toolTimes.append(
                try Measure.processSeconds(tool, arguments, environment: ProcessInfo.processInfo.environment))
        }
        let megabytes = Double(size) / 1_048_576
        let rate = megabytes / ours
        let baseline = megabytes / Measure.median(toolTimes)
        return Figure(
            name: "SHA-256 of 64 MiB",
            value: rate,
            unit: "MiB/s",
            baseline: baseline,
            baselineName: "\(tool.split(separator: "/").last ?? "") on the same data, whole process (MiB/s)",
            ratio: rate / baseline,
            target: nil,
            meetsTarget: nil
        )
    }
}
