import Bearer
import Foundation
import Testing

@_spi(Bridge) @_spi(Migration) @testable import BearerCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Changing a file's owner needs root; these tests run as root in CI's containers.
private let canChangeOwners = geteuid() == 0
/// A user ID that owns nothing here.
private let otherUser: uid_t = 54_321

@Suite("FileSessionStore trusts only a folder and files of the current user")
struct FolderTrustTests {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("bearer-trust-\(UUID().uuidString)", isDirectory: true)
        .appendingPathComponent("sessions", isDirectory: true)

    var store: FileSessionStore { FileSessionStore(directory: directory) }

    let state = AuthState(
        server: Fixtures.server,
        client: Fixtures.publicClient,
        accessToken: AccessToken("at"),
        accessTokenExpiresAt: Fixtures.epoch,
        refreshToken: RefreshToken("rt"),
        grantedScopes: ["email"]
    )

    private func cleanUp() {
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
    }

    private func expectRefusal(
        containing fix: String,
        _ body: () async throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let error = await #expect(throws: BearerError.self, sourceLocation: sourceLocation) { try await body() }
        #expect(error?.kind == .insecureStorage, sourceLocation: sourceLocation)
        #expect(error?.reason.contains(fix) == true, "\(String(describing: error))", sourceLocation: sourceLocation)
    }

    @Test("A folder that group or others can write is refused with the chmod that fixes it, for saves, loads and locks")
    func writableFolderIsRefused() async throws {
        defer { cleanUp() }
        try await store.save(state, key: "default")
        chmod(directory.path, 0o777)
        await expectRefusal(containing: "chmod 700 '\(directory.path)'") { try await store.save(state, key: "default") }
        await expectRefusal(containing: "chmod 700") { _ = try await store.load(key: "default") }
        await expectRefusal(containing: "chmod 700") { try await store.withExclusiveAccess(to: "default") { _ in } }
        chmod(directory.path, 0o700)
        #expect(try await store.load(key: "default") == state, "the session is intact once the folder is fixed")
    }

    @Test("A folder that others can only read is still made private, as before")
    func readableFolderIsMadePrivate() async throws {
        defer { cleanUp() }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        chmod(directory.path, 0o755)
        try await store.save(state, key: "default")
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path)
        #expect(attributes[.posixPermissions] as? Int == 0o700)
    }

    @Test("A folder another user owns is refused before anything is written", .enabled(if: canChangeOwners))
    func foreignFolderIsRefused() async throws {
        defer { cleanUp() }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        chown(directory.path, otherUser, gid_t.max)
        await expectRefusal(containing: "belongs to another user") { try await store.save(state, key: "default") }
        await expectRefusal(containing: "mv '\(directory.path)'") {
            try await store.withExclusiveAccess(to: "a") { _ in }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("A session file or lock file another user owns is refused", .enabled(if: canChangeOwners))
    func foreignFilesAreRefused() async throws {
        defer { cleanUp() }
        try await store.save(state, key: "default")
        let session = try store.fileURL(for: "default").path
        chown(session, otherUser, gid_t.max)
        await expectRefusal(containing: "rm '\(session)'") { _ = try await store.load(key: "default") }
        let lock = directory.appendingPathComponent(".default.lock").path
        try await store.withExclusiveAccess(to: "default") { _ in }
        chown(lock, otherUser, gid_t.max)
        await expectRefusal(containing: "rm '\(lock)'") { try await store.withExclusiveAccess(to: "default") { _ in } }
    }
}
