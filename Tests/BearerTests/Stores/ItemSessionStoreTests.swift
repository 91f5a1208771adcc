import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Bridge) @_spi(Internals) @_spi(Migration) @_spi(Testing) @testable import BearerCore

/// The store logic `KeychainSessionStore` runs on Apple platforms, over items kept in files.
@Suite("ItemSessionStore and LockFolder")
struct ItemSessionStoreTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-items-\(UUID().uuidString)")

    let state = AuthState(
        server: Fixtures.server,
        client: Fixtures.publicClient,
        accessToken: AccessToken("at"),
        accessTokenExpiresAt: Fixtures.epoch,
        refreshToken: RefreshToken("rt"),
        grantedScopes: ["email"]
    )

    private func store(namespace: String = "Bearer", locked: Bool = true) -> ItemSessionStore<FileSessionItems> {
        ItemSessionStore(
            items: FileSessionItems(directory: root.appendingPathComponent("items")),
            namespace: namespace,
            lockFolder: locked ? LockFolder(directory: root.appendingPathComponent("locks")) : nil
        )
    }

    @Test("Sessions save, load back, list and remove by key, whatever characters the key has")
    func roundTrip() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let store = store()
        #expect(try await store.load(key: "alice@example.com/work") == nil)
        try await store.save(state, key: "alice@example.com/work")
        try await store.save(state, key: "bob")
        #expect(try await store.load(key: "alice@example.com/work") == state)
        #expect(try await store.keys() == ["alice@example.com/work", "bob"])
        try await store.remove(key: "bob")
        try await store.remove(key: "bob")
        #expect(try await store.keys() == ["alice@example.com/work"])
    }

    @Test("An item that is not a session is reported and left as it is")
    func corruptItemIsKept() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let items = FileSessionItems(directory: root.appendingPathComponent("items"))
        try items.write(Data("not json".utf8), key: "default")
        await #expect(throws: BearerError.self) { try await store().load(key: "default") }
        #expect(try items.read(key: "default") == Data("not json".utf8))
    }

    @Test("Lock files are short safe names, one per key and namespace")
    func lockNames() {
        let names = [
            store(namespace: "Bearer").lockName(for: "default"),
            store(namespace: "Bearer").lockName(for: "../default"),
            store(namespace: "Other").lockName(for: "default"),
        ]
        #expect(Set(names).count == 3)
        for name in names {
            #expect(name.count == 37 && name.hasSuffix(".lock"))
            #expect(name.dropLast(5).allSatisfy { $0.isHexDigit })
        }
        #expect(store().lockName(for: "default") == names[0])
    }

    @Test("Two stores over one lock folder never run bodies for the same key at once; the folder is 0700")
    func lockFolderExcludes() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let inside = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                let store = store()
                group.addTask {
                    try await store.withExclusiveAccess(to: "default") { _ in
                        let count = await inside.enter()
                        #expect(count == 1, "body \(index) ran beside another")
                        await Task.yield()
                        await inside.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(await inside.maximum == 1)
        let locks = root.appendingPathComponent("locks").path
        let mode = try FileManager.default.attributesOfItem(atPath: locks)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: locks) == [store().lockName(for: "default")])
    }

    @Test("Without a lock folder the lock holds within the process and creates no file")
    func inProcessLock() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try await store(locked: false).withExclusiveAccess(to: "default") { _ in 42 }
        #expect(result == 42)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("locks").path))
    }

    @Test("No shared container (the app is not in the group) is a configuration error naming the entitlement")
    func missingContainer() throws {
        let error = #expect(throws: BearerError.self) { try LockFolder.inContainer(nil, appGroup: "group.com.example") }
        #expect(error?.kind == .invalidConfiguration)
        #expect(error?.reason.contains("com.apple.security.application-groups") == true)
        let folder = try LockFolder.inContainer(URL(fileURLWithPath: "/container"), appGroup: "group.com.example")
        #expect(folder.directory.path == "/container/Library/Application Support/Bearer/Locks")
    }
}

/// Counts the bodies running at once.
private actor Counter {
    private var current = 0
    private(set) var maximum = 0

    func enter() -> Int {
        current += 1
        maximum = max(maximum, current)
        return current
    }

    func leave() {
        current -= 1
    }
}
