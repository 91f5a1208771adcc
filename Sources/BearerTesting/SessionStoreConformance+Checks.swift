import Bearer
import Foundation

// The checks of ``SessionStoreConformance``; each returns what it saw when a rule is broken.
extension SessionStoreConformance {
    /// The server the checks' sessions name; nothing is sent to it.
    static var server: AuthorizationServer {
        get throws {
            guard let issuer = URL(string: "https://conformance.invalid") else {
                throw BearerError.invalidConfiguration("The conformance issuer is not a URL.")
            }
            return AuthorizationServer(
                issuer: issuer,
                authorizationEndpoint: issuer.appendingPathComponent("authorize"),
                tokenEndpoint: issuer.appendingPathComponent("token"))
        }
    }

    /// A session whose tokens carry `mark`, made as a token answer would make it.
    static func session(_ mark: String) throws -> AuthState {
        try AuthState(
            server: server, client: Client(id: "conformance-client"), accessToken: "at-" + mark, expiresIn: 3600,
            refreshToken: "rt-" + mark, scopes: ["conformance"])
    }

    /// Runs `check`, then removes what it saved under `key`, whatever it found.
    static func removing(_ key: String, from store: Store, after check: () async throws -> String?) async throws
        -> String?
    {
        do {
            let problem = try await check()
            try? await store.remove(key: key)
            return problem
        } catch {
            try? await store.remove(key: key)
            throw error
        }
    }

    static func roundTrip(_ store: Store, key: String) async throws -> String? {
        try await removing(key, from: store) { try await roundTripOnce(store, key: key) }
    }

    private static func roundTripOnce(_ store: Store, key: String) async throws -> String? {
        let first = try session("1")
        try await store.save(first, key: key)
        guard try await store.load(key: key) == first else { return "a saved session did not load back the same" }
        let inLock = try await store.withExclusiveAccess(to: key) { access in try await access.load() }
        guard inLock == first else { return "the access under the lock read another session than load(key:)" }
        guard try await store.keys().contains(key) else { return "keys() does not list a saved key" }
        let second = try session("2")
        try await store.save(second, key: key)
        guard try await store.load(key: key) == second else { return "a second save did not replace the first" }
        return nil
    }

    static func removal(_ store: Store, key: String) async throws -> String? {
        try await store.save(try session("1"), key: key)
        try await store.withExclusiveAccess(to: key) { access in try await access.remove() }
        guard try await store.load(key: key) == nil else { return "a removed session still loads" }
        guard try await !store.keys().contains(key) else { return "keys() lists a removed key" }
        do {
            try await store.remove(key: key)
        } catch {
            return "removing a key with no session threw \(error)"
        }
        return nil
    }

    static func keysAreSorted(_ store: Store, prefix: String) async throws -> String? {
        let keys = ["c", "a", "b"].map { prefix + $0 }
        for key in keys { try await store.save(try session(key), key: key) }
        let listed = try await store.keys().filter { $0.hasPrefix(prefix) }
        for key in keys { try await store.remove(key: key) }
        return listed == keys.sorted() ? nil : "keys() gave \(listed), not the saved keys sorted"
    }

    static func staleSavesAreRefused(_ store: Store, key: String) async throws -> String? {
        try await removing(key, from: store) { try await staleSavesOnce(store, key: key) }
    }

    private static func staleSavesOnce(_ store: Store, key: String) async throws -> String? {
        let (first, second, other) = (try session("1"), try session("2"), try session("other"))
        try await store.save(first, key: key)
        for expected in [other, nil] {
            let refused: Bool
            do {
                try await store.withExclusiveAccess(to: key) { access in
                    try await access.save(second, replacing: expected)
                }
                refused = false
            } catch let error as BearerError where error.kind == .storedCopyChanged {
                refused = true
            }
            guard refused else {
                return "a save naming \(expected == nil ? "no stored copy" : "another copy") was not refused"
            }
            guard try await store.load(key: key) == first else { return "a refused save changed the stored copy" }
        }
        try await store.withExclusiveAccess(to: key) { access in try await access.save(second, replacing: first) }
        guard try await store.load(key: key) == second else { return "a save naming the stored copy did not land" }
        try await store.withExclusiveAccess(to: key) { access in
            try await access.remove()
            try await access.save(first, replacing: nil)
        }
        return try await store.load(key: key) == first ? nil : "a save after this holder's removal did not land"
    }

    /// Bodies for one key, spread over `stores`, each read, wait and write a count: with the lock,
    /// none overlaps another and no increment is lost.
    static func lockExcludes(_ stores: [Store], key: String) async throws -> String? {
        guard let first = stores.first else { return nil }
        return try await removing(key, from: first) { try await lockExcludesOnce(stores, first: first, key: key) }
    }

    private static func lockExcludesOnce(_ stores: [Store], first: Store, key: String) async throws -> String? {
        try await first.save(try session("0"), key: key)
        let inside = Counter()
        let bodies = 8
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<bodies {
                let store = stores[index % stores.count]
                group.addTask {
                    try await store.withExclusiveAccess(to: key) { access in
                        inside.enter()
                        defer { inside.leave() }
                        let count = Int(try await access.load()?.accessToken?.value.dropFirst(3) ?? "") ?? -1
                        try await Task.sleep(for: .milliseconds(5))
                        try await access.write(try session(String(count + 1)))
                    }
                }
            }
            try await group.waitForAll()
        }
        let final = try await first.load(key: key)?.accessToken?.value
        guard inside.most == 1 else { return "\(inside.most) bodies ran at once for one key" }
        return final == "at-\(bodies)" ? nil : "\(bodies) locked increments ended at \(final ?? "nothing")"
    }

    static func lockSurvivesErrors(_ store: Store, key: String) async throws -> String? {
        do {
            try await store.withExclusiveAccess(to: key) { _ in throw CancellationError() }
            return "an error thrown by the body did not reach the caller"
        } catch is CancellationError {}
        let next = Task { try await store.withExclusiveAccess(to: key) { _ in true } }
        let timer = Task {
            try await Task.sleep(for: .seconds(10))
            next.cancel()
        }
        defer { timer.cancel() }
        return (try? await next.value) == true ? nil : "the lock was not released after the body threw"
    }

    static func keysLockApart(_ store: Store, prefix: String) async throws -> String? {
        let release = Counter()
        let ended = Counter()
        let holder = Task {
            defer { ended.enter() }
            try await store.withExclusiveAccess(to: prefix + "held") { _ in
                release.enter()
                while release.count > 0 { try await Task.sleep(for: .milliseconds(5)) }
            }
        }
        defer { holder.cancel() }
        while release.most == 0 {
            guard ended.most == 0 else {
                return "a body for a free key did not run: \(String(describing: await holder.result))"
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        let other = Task { try await store.withExclusiveAccess(to: prefix + "other") { _ in true } }
        let timer = Task {
            try await Task.sleep(for: .seconds(10))
            other.cancel()
        }
        defer { timer.cancel() }
        let ran = (try? await other.value) == true
        release.leave()
        try await holder.value
        return ran ? nil : "a body for one key waited for another key's lock"
    }

    /// A holder whose lock is removed while it holds it, and a second holder that arrives since:
    /// at most one of them may be told it can send a refresh (``ExclusiveSessionAccess/prepareToSave()``).
    static func removedLockKeepsOneHolder(
        _ store: Store,
        _ second: Store,
        key: String,
        removeLock: @Sendable (Store, String) async throws -> Void
    ) async throws -> String? {
        let prepared = Counter()
        let inside = Counter()
        let arrived = Counter()
        let latecomer = try await store.withExclusiveAccess(to: key) { access in
            inside.enter()
            defer { inside.leave() }
            try await removeLock(store, key)
            let latecomer = Task {
                arrived.enter()
                return try await second.withExclusiveAccess(to: key) { access in
                    inside.enter()
                    defer { inside.leave() }
                    if (try? await access.prepareToSave()) != nil { prepared.enter() }
                }
            }
            // The latecomer either gets in (the removed lock let it) or waits for this holder; it
            // is given two seconds to get in, however loaded the machine.
            while arrived.most == 0 { try await Task.sleep(for: .milliseconds(5)) }
            let patience = ContinuousClock.now + .seconds(2)
            while inside.most < 2, ContinuousClock.now < patience { try await Task.sleep(for: .milliseconds(10)) }
            if (try? await access.prepareToSave()) != nil { prepared.enter() }
            return latecomer
        }
        // A latecomer that waited gets in now; it is awaited outside the lock it waits for.
        _ = try? await latecomer.value
        guard inside.most < 2 || prepared.most < 2 else {
            return "two holders of one key were both allowed to send a refresh after its lock was removed"
        }
        return nil
    }
}

/// Counts bodies inside a region, and the most at once.
final class Counter: @unchecked Sendable {
    // Unchecked: the counts are touched only while holding `lock`.
    private let lock = NSLock()
    private var current = 0
    private var highest = 0

    func enter() {
        lock.withLock {
            current += 1
            highest = max(highest, current)
        }
    }

    func leave() { lock.withLock { current -= 1 } }

    var count: Int { lock.withLock { current } }
    var most: Int { lock.withLock { highest } }
}
