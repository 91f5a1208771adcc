import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Bridge) @_spi(Migration) @testable import BearerCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The space of a save is allocated when the lock is taken, before a refresh is sent, so a full
/// disk cannot lose the refresh token that the server rotated.
@Suite("FileSessionStore: space reserved under the lock")
struct FileSessionStoreReservationTests {
    private func makeStore() -> (FileSessionStore, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-reserve-\(UUID())")
        return (FileSessionStore(directory: directory), directory)
    }

    private func state(_ token: String) -> AuthState {
        AuthState(server: Fixtures.server, client: Fixtures.publicClient, refreshToken: RefreshToken(token))
    }

    private static func temporaryFiles(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".tmp") }
    }

    private static func inode(_ path: String) -> UInt64? {
        var status = stat()
        return stat(path, &status) == 0 ? UInt64(status.st_ino) : nil
    }

    @Test("A save under the lock writes into the file whose space prepareToSave allocated")
    func saveUsesReservedSpace() async throws {
        let (store, directory) = makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await store.save(state("rt-1"), key: "main")
        let reserved = try await store.withExclusiveAccess(to: "main") { access -> UInt64? in
            #expect(Self.temporaryFiles(in: directory).isEmpty, "nothing is reserved for a body that only reads")
            try await access.prepareToSave()
            let files = Self.temporaryFiles(in: directory)
            guard files.count == 1, let name = files.first else { return nil }
            let path = directory.appendingPathComponent(name).path
            var status = stat()
            guard stat(path, &status) == 0, Int(status.st_blocks) * 512 >= FileSessionStore.reservedSpace else {
                return nil
            }
            let inode = Self.inode(path)
            try await access.write(state("rt-2"))
            return inode
        }
        let reservedInode = try #require(reserved, "one reserved temporary file of the full size exists under the lock")
        #expect(Self.inode(try store.fileURL(for: "main").path) == reservedInode)
        #expect(try await store.load(key: "main")?.refreshToken?.value == "rt-2")
        #expect(Self.temporaryFiles(in: directory).isEmpty)
        let size = try FileManager.default.attributesOfItem(atPath: try store.fileURL(for: "main").path)[.size] as? Int
        #expect(size == (try state("rt-2").encoded().count), "the reserved file is cut to the session's size")
    }

    @Test("An unused reservation is removed when the lock is released, whether the body succeeds or throws")
    func unusedReservationIsRemoved() async throws {
        let (store, directory) = makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await store.withExclusiveAccess(to: "main") { access in try await access.prepareToSave() }
        #expect(Self.temporaryFiles(in: directory).isEmpty)
        struct Failure: Error {}
        await #expect(throws: Failure.self) {
            try await store.withExclusiveAccess(to: "main") { access in
                try await access.prepareToSave()
                throw Failure()
            }
        }
        #expect(Self.temporaryFiles(in: directory).isEmpty)
        try await store.save(state("rt-3"), key: "main")
        #expect(try await store.load(key: "main")?.refreshToken?.value == "rt-3")
    }
}
