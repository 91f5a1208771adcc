// One instance of a server fleet, for the PostgreSQL store's end-to-end tests and benchmarks:
// it shares its sessions with the other instances through a PostgresSessionStore.
//
//   BearerFleetWorker run <connection> <table> <key prefix> <sessions> <tasks> <seconds> <resource URL>
//       <tasks> concurrent request handlers for <seconds>: each restores a random user's session
//       from the store and calls the resource with it, as a request handler would. Traces each
//       refresh (`refresh-sent <request>`, `refresh-answered <request>`) and each finished
//       request (`done <request>`), a request being `<key>#<handler>.<serial>`, then prints one JSON line of counts (requests, successes, invalid grants
//       and their keys, errors by kind); never a token.
//   BearerFleetWorker hold <connection> <table> <key>
//       takes the key's lock (trying again after transient errors), prints "holding" and sleeps
//       until it is killed.
//   BearerFleetWorker refresh <connection> <table> <key prefix> <first> <count> <tasks> <token URL>
//       restores sessions <first>..<first+count-1> and refreshes each once (the benchmark's
//       stale sessions); prints {"refreshed": n, "failed": n, "seconds": s}.
//   BearerFleetWorker logout-receiver <connection> <table> <issuer> <client ID> <port>
//       the instance's back-channel logout endpoint on 127.0.0.1:<port>: each POST goes to
//       BackChannelLogout, which ends the sessions its logout token names in the store; prints
//       "listening", then "logout <status>" for each request, until it is killed.
//   BearerFleetWorker status <connection> <table> <key>
//       restores the key's session and prints "signed-in", "sign-in-required" or "absent".
import Bearer
import BearerPostgres
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("BearerFleetWorker: \(message)\n".utf8))
    exit(64)
}

/// What one worker saw.
actor Tally {
    var requests = 0
    var successes = 0
    var invalidGrants = 0
    var invalidGrantKeys: Set<String> = []
    var errors: [String: Int] = [:]

    func record(_ outcome: Result<Int, any Error>, key: String) {
        requests += 1
        switch outcome {
        case .success(let status) where status == 200:
            successes += 1
        case .success(let status):
            errors["http \(status)", default: 0] += 1
        case .failure(let error):
            errors[Self.name(of: error), default: 0] += 1
            if Self.isInvalidGrant(error) {
                invalidGrants += 1
                invalidGrantKeys.insert(key)
            }
        }
    }

    /// The error's kind, and whether it is transient, without its message (which never holds a
    /// token, but is not needed to count).
    static func name(of error: any Error) -> String {
        switch error {
        case let error as PostgresSessionStoreError:
            "postgres.\(error.kind)\(error.isTransient ? " (transient)" : "")"
        case let error as BearerError:
            "bearer.\(error.kind)\(error.isTransient ? " (transient)" : "")"
        case let error as OAuthError:
            "oauth.\(error.code)"
        default:
            "other \(type(of: error))"
        }
    }

    static func isInvalidGrant(_ error: any Error) -> Bool {
        if let error = error as? OAuthError { return error.code == .invalidGrant }
        if let error = error as? BearerError { return error.signInRequired }
        return false
    }

    func json() -> String {
        let object: [String: Any] = [
            "requests": requests, "successes": successes, "invalidGrants": invalidGrants,
            "invalidGrantKeys": invalidGrantKeys.sorted(), "errors": errors,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

func store(_ connection: String, _ table: String, poolSize: Int = 8) -> PostgresSessionStore {
    do {
        return try PostgresSessionStore(
            connectionString: connection, table: table, poolSize: poolSize, lockTimeout: .seconds(5))
    } catch {
        fail("\(error)")
    }
}

/// The request handler: restore the user's session, call the API with it.
func handle(key: String, store: PostgresSessionStore, resource: URL, transport: any HTTPTransport) async throws
    -> Int
{
    guard let session = try await AuthSession.restore(key: key, from: store, transport: transport) else {
        throw BearerError.signInRequired("No session is saved for this user.")
    }
    let (_, response) = try await session.data(for: URLRequest(url: resource))
    return response.statusCode
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "run":
    guard arguments.count == 8, let sessions = Int(arguments[4]), let tasks = Int(arguments[5]),
        let seconds = Double(arguments[6]), let resource = URL(string: arguments[7])
    else { fail("usage: run <connection> <table> <key prefix> <sessions> <tasks> <seconds> <url>") }
    let shared = store(arguments[1], arguments[2])
    let prefix = arguments[3]
    let tally = Tally()
    let transport = TracingTransport()
    let deadline = Date().addingTimeInterval(seconds)
    await withTaskGroup(of: Void.self) { group in
        for handler in 0..<tasks {
            group.addTask {
                var served = 0
                while Date() < deadline {
                    let key = prefix + String(format: "%02d", Int.random(in: 0..<sessions))
                    // Several handlers may serve one key at once: the trace names each request.
                    served += 1
                    let request = "\(key)#\(handler).\(served)"
                    let outcome: Result<Int, any Error>
                    do {
                        outcome = .success(
                            try await ServedKey.$current.withValue(request) {
                                try await handle(key: key, store: shared, resource: resource, transport: transport)
                            })
                    } catch {
                        outcome = .failure(error)
                    }
                    trace("done \(request)")
                    await tally.record(outcome, key: key)
                    // A transient failure is retried by the next request, as a server would.
                    if case .failure = outcome { try? await Task.sleep(for: .milliseconds(50)) }
                }
            }
        }
    }
    await shared.close()
    print(await tally.json())
case "hold":
    guard arguments.count == 4 else { fail("usage: hold <connection> <table> <key>") }
    let shared = store(arguments[1], arguments[2], poolSize: 1)
    // The key is busy with the other workers' requests: a wait longer than the lock timeout is
    // tried again, as a request handler's next request would.
    while true {
        do {
            try await shared.withExclusiveAccess(to: arguments[3]) { _ in
                FileHandle.standardOutput.write(Data("holding\n".utf8))
                try await Task.sleep(for: .seconds(600))
            }
        } catch let error as PostgresSessionStoreError where error.isTransient {
            trace("retrying: \(Tally.name(of: error))")
            continue
        } catch {
            fail("\(error)")
        }
    }
case "refresh":
    guard arguments.count == 8, let first = Int(arguments[4]), let count = Int(arguments[5]),
        let tasks = Int(arguments[6]), let resource = URL(string: arguments[7])
    else { fail("usage: refresh <connection> <table> <key prefix> <first> <count> <tasks> <url>") }
    let shared = store(arguments[1], arguments[2], poolSize: tasks)
    let prefix = arguments[3]
    let started = Date()
    let keys = (first..<(first + count)).map { prefix + String($0) }
    let results = await withTaskGroup(of: Bool.self) { group in
        let transport = URLSessionTransport()
        var next = keys.makeIterator()
        var outcomes: [Bool] = []
        func add(_ key: String) {
            group.addTask {
                (try? await handle(key: key, store: shared, resource: resource, transport: transport)) == 200
            }
        }
        for _ in 0..<tasks { if let key = next.next() { add(key) } }
        for await outcome in group {
            outcomes.append(outcome)
            if let key = next.next() { add(key) }
        }
        return outcomes
    }
    let seconds = Date().timeIntervalSince(started)
    await shared.close()
    let refreshed = results.filter { $0 }.count
    print(#"{"refreshed": \#(refreshed), "failed": \#(results.count - refreshed), "seconds": \#(seconds)}"#)
case "logout-receiver":
    guard arguments.count == 6, let issuer = URL(string: arguments[3]), let port = UInt16(arguments[5]) else {
        fail("usage: logout-receiver <connection> <table> <issuer> <client ID> <port>")
    }
    let transport = URLSessionTransport()
    do {
        let server = try await AuthorizationServerClient(transport: transport).discover(
            issuer: issuer, allowingInsecureLoopback: true)
        let logout = try BackChannelLogout(
            server: server, clientIDs: [arguments[4]], store: store(arguments[1], arguments[2]),
            verifier: PlatformSignatureVerifier(), transport: transport)
        await LogoutReceiver.serve(logout, port: port)
    } catch {
        fail("\(error)")
    }
case "status":
    guard arguments.count == 4 else { fail("usage: status <connection> <table> <key>") }
    let shared = store(arguments[1], arguments[2], poolSize: 1)
    do {
        let session = try await AuthSession.restore(key: arguments[3], from: shared)
        let required = await session?.state.signInRequiredError != nil
        print(session == nil ? "absent" : required ? "sign-in-required" : "signed-in")
    } catch {
        fail("\(error)")
    }
    await shared.close()
default:
    fail("usage: run|hold|refresh|logout-receiver|status …")
}
