import Bearer
import BearerTestSupport
import BearerTesting
import Foundation
import Testing

@_spi(Bridge) @_spi(Testing) @testable import BearerCore

/// Every store of the package keeps `SessionStore`'s contract, checked by the same kit an app's
/// own store uses.
@Suite("SessionStoreConformance: the package's stores")
struct SessionStoreConformanceTests {
    private static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("bearer-conformance-\(UUID())")
    }

    @Test("InMemorySessionStore")
    func inMemory() async throws {
        try await SessionStoreConformance { InMemorySessionStore() }.verify()
    }

    @Test("FileSessionStore, across two instances (as two processes), with its lock file removed while held")
    func file() async throws {
        let directory = Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await SessionStoreConformance(
            sharedAcrossInstances: true,
            removeLock: { store, key in
                try FileManager.default.removeItem(at: store.directory.appendingPathComponent(".\(key).lock"))
            },
            makeStore: { FileSessionStore(directory: directory, lockTimeout: .seconds(20)) }
        ).verify()
    }

    @Test("The keychain store's platform-neutral part, with an app group's lock folder removed while held")
    func items() async throws {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let locks = LockFolder(directory: root.appendingPathComponent("locks"))
        try await SessionStoreConformance(
            sharedAcrossInstances: true,
            removeLock: { store, key in
                try FileManager.default.removeItem(at: locks.directory.appendingPathComponent(store.lockName(for: key)))
            },
            makeStore: {
                ItemSessionStore(
                    items: FileSessionItems(directory: root.appendingPathComponent("items")), namespace: "Bearer",
                    lockFolder: locks)
            }
        ).verify()
    }

    @Test("A store that skips the stale-save rule or the lock is caught")
    func catchesBrokenStore() async throws {
        let error = await #expect(throws: SessionStoreConformance<CarelessStore>.Failure.self) {
            try await SessionStoreConformance { CarelessStore() }.verify()
        }
        let rules = error?.brokenRules.joined(separator: "\n") ?? ""
        #expect(rules.contains("stale saves"), "\(rules)")
        #expect(rules.contains("lock across tasks"), "\(rules)")
    }
}

/// A store that saves whatever it is given and locks nothing: what the kit must refuse.
private actor CarelessStore: SessionStore {
    private var items: [String: AuthState] = [:]

    func load(key: String) async throws -> AuthState? { items[key] }
    func keys() async throws -> [String] { items.keys.sorted() }
    func set(_ state: AuthState?, key: String) { items[key] = state }

    nonisolated func withExclusiveAccess<Result: Sendable>(
        to key: String, _ body: @Sendable (_ access: Access) async throws -> Result
    ) async throws -> Result {
        try await body(Access(store: self, key: key))
    }

    struct Access: ExclusiveSessionAccess {
        let store: CarelessStore
        let key: String

        func load() async throws -> AuthState? { try await store.load(key: key) }
        func save(_ state: AuthState, replacing expected: AuthState?) async throws { try await write(state) }
        func write(_ state: AuthState) async throws { await store.set(state, key: key) }
        func remove() async throws { await store.set(nil, key: key) }
    }

    @Test("BackChannelLogoutConformance: InMemorySessionStore and FileSessionStore (which remember tokens per value)")
    func logout() async throws {
        try await BackChannelLogoutConformance { InMemorySessionStore() }.verify()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-logout-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileSessionStore(directory: directory)
        try await BackChannelLogoutConformance { store }.verify()
    }
}
