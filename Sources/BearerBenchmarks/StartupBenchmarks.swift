import Bearer
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Start-up: the `bearer` tool as whole processes, and the library's first use in a process.
extension Benchmarks {
    /// The same session file decoded by hand: what a program needs to stamp a request.
    struct HandDecodedSession: Decodable {
        struct Server: Decodable {
            let issuer: URL
            let tokenEndpoint: URL
        }

        struct Client: Decodable {
            let id: String
        }

        let server: Server
        let client: Client
        let accessToken: String
        let accessTokenExpiresAt: Date
        let refreshToken: String
        let grantedScopes: [String]
    }

    /// `bearer token` and `bearer status` on a fresh session, the start-up floor (a minimal
    /// static Swift Foundation program printing the token from the same file), the same floor
    /// checking the token's expiry too, and google-auth doing `bearer token`'s job. Every sample
    /// runs the five programs in turn, so the machine's noise falls on all of them alike.
    static func startup(bearer: String, floor: String, python: String, repeats: Int) async throws -> [Figure] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let base = URL(string: "https://oauth2.example.com") else { throw BenchmarkFailure("bad URL") }
        let store = FileSessionStore(directory: folder)
        try await store.save(state(base, expiresAt: Date().addingTimeInterval(3600)), key: "default")
        let expiry = ISO8601DateFormatter().string(from: Date().addingTimeInterval(3600))
        let credentials: [String: String] = [
            "type": "authorized_user", "client_id": "bench", "client_secret": "bench-secret",
            "refresh_token": "bench-refresh-token", "token": "bench-access-token-0123456789", "expiry": expiry,
        ]
        let credentialsFile = folder.appendingPathComponent("adc.json")
        try JSONEncoder().encode(credentials).write(to: credentialsFile)
        let script = """
            import sys
            import google.auth.transport.requests
            import google.oauth2.credentials
            credentials = google.oauth2.credentials.Credentials.from_authorized_user_file(sys.argv[1])
            if not credentials.valid:
                credentials.refresh(google.auth.transport.requests.Request())
            print(credentials.token)
            """
        var environment = ProcessInfo.processInfo.environment
        environment["BEARER_CONFIG_DIR"] = folder.path
        let sessionFile = try store.fileURL(for: "default").path
        let programs = [
            (bearer, ["token"]), (bearer, ["status"]), (floor, [sessionFile]),
            (python, ["-c", script, credentialsFile.path]), (floor, ["--fresh", sessionFile]),
        ]
        var samples = Array(repeating: [Double](), count: programs.count)
        // Each round starts with the next program, so that each follows every other (google-auth
        // leaves the caches cold for whichever runs after it) equally often.
        for round in 0..<(3 + max(repeats * 10, 70)) {
            for offset in programs.indices {
                let index = (round + offset) % programs.count
                let (executable, arguments) = programs[index]
                let seconds = try Measure.processSeconds(executable, arguments, environment: environment)
                if round >= 3 { samples[index].append(seconds) }
            }
        }
        let medians = samples.map { Measure.median($0) * 1000 }
        let (token, status, floorTime, google) = (medians[0], medians[1], medians[2], medians[3])
        let freshFloor = medians[4]
        let floorName = "a minimal static Swift Foundation program printing the token from the same file (ms)"
        return [
            Figure(
                name: "bearer token, whole process, fresh session", value: token, unit: "ms",
                baseline: floorTime, baselineName: floorName, ratio: token / floorTime,
                target: "≤ 1.2× the floor", meetsTarget: token / floorTime <= 1.2),
            Figure(
                name: "bearer status, whole process", value: status, unit: "ms",
                baseline: floorTime, baselineName: floorName, ratio: status / floorTime,
                target: "≤ 1.5× the floor", meetsTarget: status / floorTime <= 1.5),
            Figure(
                name: "bearer token, whole process, fresh session, against the floor that also checks the expiry",
                value: token, unit: "ms", baseline: freshFloor,
                baselineName: "the same floor decoding the token and its expiry and checking it (ms)",
                ratio: token / freshFloor, target: "≤ 1.2× the floor", meetsTarget: token / freshFloor <= 1.2),
            Figure(
                name: "bearer token against google-auth", value: token, unit: "ms",
                baseline: google,
                baselineName: "google-auth (Python) loading stored credentials and printing the token (ms)",
                ratio: google / token, target: "≥ 20× faster", meetsTarget: google / token >= 20),
        ]
    }

    /// `AuthSession.restore` from a `FileSessionStore` and the first `authorize`, as an app does
    /// at launch, against reading and decoding the same file with Foundation by hand and
    /// stamping the request.
    static func coldStart(repeats: Int) async throws -> Figure {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let base = URL(string: "https://oauth2.example.com") else { throw BenchmarkFailure("bad URL") }
        try await FileSessionStore(directory: folder).save(
            state(base, expiresAt: Date().addingTimeInterval(3600)), key: "default")
        let file = try FileSessionStore(directory: folder).fileURL(for: "default")
        let request = URLRequest(url: base.appendingPathComponent("resource"))
        let launches = 2_000
        var sink = 0
        // The two loops alternate, so a busy moment on the machine falls on both alike.
        var library: [Double] = []
        var byHand: [Double] = []
        for _ in 0..<repeats {
            library.append(
                try await Measure.seconds {
                    for _ in 0..<launches {
                        let session = try await AuthSession.restore(
                            key: "default", from: FileSessionStore(directory: folder))
                        guard let session else { throw BenchmarkFailure("no session") }
                        sink &+= try await session.authorize(request).allHTTPHeaderFields?.count ?? 0
                    }
                })
            byHand.append(
                try await Measure.seconds {
                    for _ in 0..<launches {
                        let decoder = JSONDecoder()
                        decoder.dateDecodingStrategy = .secondsSince1970
                        let stored = try decoder.decode(HandDecodedSession.self, from: Data(contentsOf: file))
                        guard stored.accessTokenExpiresAt > Date() else { throw BenchmarkFailure("stale") }
                        var authorized = request
                        authorized.setValue("Bearer " + stored.accessToken, forHTTPHeaderField: "Authorization")
                        sink &+= authorized.allHTTPHeaderFields?.count ?? 0
                    }
                })
        }
        precondition(sink != 42)
        let perLaunch = Measure.median(library) / Double(launches) * 1e6
        let baseline = Measure.median(byHand) / Double(launches) * 1e6
        return Figure(
            name: "restore from a FileSessionStore and the first authorize", value: perLaunch, unit: "µs",
            baseline: baseline, baselineName: "reading and decoding the same file with Foundation by hand (µs)",
            ratio: perLaunch / baseline, target: "≤ 1.5×", meetsTarget: perLaunch / baseline <= 1.5)
    }
}
