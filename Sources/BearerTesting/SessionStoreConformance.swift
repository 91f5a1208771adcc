public import Bearer
import Foundation

/// Checks that a ``SessionStore`` keeps the contract ``AuthSession`` relies on, from the store's
/// own tests: what is saved reads back the same, removals remove, a save that names a stored copy
/// that is no longer there is refused, the lock of a key lets one body in at a time (across
/// instances too, for a store shared between processes), and keys are listed by prefix as an
/// ``AccountList`` needs. Every store of the package passes it.
///
/// ```swift
/// @Test func redisStoreKeepsTheContract() async throws {
///     try await SessionStoreConformance(sharedAcrossInstances: true) {
///         RedisSessionStore(url: testServerURL)
///     }.verify()
/// }
/// ```
///
/// The checks use keys of their own (letters, digits and `-`) and remove what they saved.
public struct SessionStoreConformance<Store: SessionStore>: Sendable {
    /// A broken rule: which check failed, and what it saw.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// One line per broken rule.
        public let brokenRules: [String]

        /// The broken rules, one per line.
        public var description: String {
            "The store broke \(brokenRules.count) rule(s) of SessionStore:\n" + brokenRules.joined(separator: "\n")
        }
    }

    let makeStore: @Sendable () async throws -> Store
    let sharedAcrossInstances: Bool
    let removeLock: (@Sendable (_ store: Store, _ key: String) async throws -> Void)?

    /// Creates the checks for stores that `makeStore` makes.
    ///
    /// - Parameters:
    ///   - sharedAcrossInstances: Whether two instances from `makeStore` share their sessions and
    ///     locks, as the instances in two processes do (a file, keychain or database store); the
    ///     lock checks then run across two instances too.
    ///   - removeLock: For a store whose lock lives in something a cleaner could remove (a lock
    ///     file), removes it while it is held; the check then shows that no two holders both get
    ///     to send a refresh.
    ///   - makeStore: Makes a store; called once, or twice when `sharedAcrossInstances`.
    public init(
        sharedAcrossInstances: Bool = false,
        removeLock: (@Sendable (_ store: Store, _ key: String) async throws -> Void)? = nil,
        makeStore: @escaping @Sendable () async throws -> Store
    ) {
        self.makeStore = makeStore
        self.sharedAcrossInstances = sharedAcrossInstances
        self.removeLock = removeLock
    }

    /// Runs every check.
    ///
    /// - Throws: ``Failure`` listing every broken rule; the store's own error when it cannot be
    ///   made.
    public func verify() async throws {
        let store = try await makeStore()
        let second = sharedAcrossInstances ? try await makeStore() : store
        let prefix = "conformance-" + UUID().uuidString.prefix(8).lowercased() + "-"
        var broken: [String] = []
        let checks: [(String, @Sendable () async throws -> String?)] = [
            ("round trip", { try await Self.roundTrip(store, key: prefix + "round-trip") }),
            ("removal", { try await Self.removal(store, key: prefix + "removal") }),
            ("keys", { try await Self.keysAreSorted(store, prefix: prefix + "keys-") }),
            ("stale saves", { try await Self.staleSavesAreRefused(store, key: prefix + "stale") }),
            ("lock across tasks", { try await Self.lockExcludes([store], key: prefix + "tasks") }),
            ("lock across instances", { try await Self.lockExcludes([store, second], key: prefix + "instances") }),
            ("lock after an error", { try await Self.lockSurvivesErrors(store, key: prefix + "error") }),
            ("keys lock apart", { try await Self.keysLockApart(store, prefix: prefix + "apart-") }),
            ("accounts", { try await Self.accountsAreListed(store, prefix: prefix + "accounts-") }),
        ]
        for (name, check) in checks {
            do {
                if let problem = try await check() { broken.append("\(name): \(problem)") }
            } catch {
                broken.append("\(name): unexpected error \(error)")
            }
        }
        if let removeLock {
            do {
                if let problem = try await Self.removedLockKeepsOneHolder(
                    store, second, key: prefix + "removed-lock", removeLock: removeLock)
                {
                    broken.append("removed lock: \(problem)")
                }
            } catch {
                broken.append("removed lock: unexpected error \(error)")
            }
        }
        guard broken.isEmpty else { throw Failure(brokenRules: broken) }
    }
}
