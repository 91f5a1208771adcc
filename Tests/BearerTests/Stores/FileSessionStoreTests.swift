import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Bridge) @_spi(Migration) @testable import BearerCore

@Suite("FileSessionStore")
struct FileSessionStoreTests {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("bearer-tests-\(UUID().uuidString)", isDirectory: true)
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

    private func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    private func cleanUp() {
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
    }

    @Test("A save creates a 0700 folder and a 0600 file that loads back, leaving no temporary file")
    func saveAndLoad() async throws {
        defer { cleanUp() }
        try await store.save(state, key: "default")
        #expect(try await store.load(key: "default") == state)
        #expect(try mode(directory.path) == 0o700)
        #expect(try mode(store.fileURL(for: "default").path) == 0o600)
        try await store.save(state.markingSignInRequired(OAuthError(code: .invalidGrant)), key: "default")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.filter { $0.hasSuffix(".tmp") }.isEmpty)
        #expect(try await store.load(key: "default")?.signInRequired == true)
    }

    @Test("A missing session loads as nil, and removing removes the file")
    func missingAndRemove() async throws {
        defer { cleanUp() }
        #expect(try await store.load(key: "nobody") == nil)
        try await store.save(state, key: "default")
        try await store.remove(key: "default")
        #expect(try await store.load(key: "default") == nil)
        #expect(!FileManager.default.fileExists(atPath: try store.fileURL(for: "default").path))
        try await store.remove(key: "default")
    }

    @Test("A file readable by others is refused with the chmod that fixes it, and left as it is")
    func insecureModeRefused() async throws {
        defer { cleanUp() }
        try await store.save(state, key: "default")
        let path = try store.fileURL(for: "default").path
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = await #expect(throws: BearerError.self) { try await store.load(key: "default") }
        #expect(error?.kind == .insecureStorage)
        #expect(error?.reason.contains("chmod 600") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test(
        "A corrupt or future file is an error naming the file, and is not deleted",
        arguments: [
            "not json", "{\"version\":1}", "{\"version\":99,\"x\":1}", "",
        ])
    func corruptFileKept(contents: String) async throws {
        defer { cleanUp() }
        try await store.save(state, key: "default")
        let path = try store.fileURL(for: "default").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let error = await #expect(throws: BearerError.self) { try await store.load(key: "default") }
        #expect(error?.kind == .unreadableSession || error?.kind == .unreadableSession)
        #expect(error?.reason.contains(path) == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(contents.utf8))
    }

    @Test("Keys that could escape the folder are refused", arguments: ["", "../x", "a/b", ".hidden", "a b", "é"])
    func badKeys(key: String) async throws {
        defer { cleanUp() }
        let error = await #expect(throws: BearerError.self) { try await store.save(state, key: key) }
        #expect(error?.kind == .invalidConfiguration)
    }

    @Test("A symbolic link in place of a session file is refused")
    func symlinkRefused() async throws {
        defer { cleanUp() }
        try await store.save(state, key: "real")
        try FileManager.default.createSymbolicLink(
            atPath: try store.fileURL(for: "link").path,
            withDestinationPath: try store.fileURL(for: "real").path
        )
        let error = await #expect(throws: BearerError.self) { try await store.load(key: "link") }
        #expect(error?.kind == .insecureStorage)
    }

    @Test("A save makes an existing folder that others can open private, and refuses a file in its place")
    func folderMadePrivateOrRefused() async throws {
        defer { cleanUp() }
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try await store.save(state, key: "default")
        #expect(try mode(directory.path) == 0o700)
        try FileManager.default.removeItem(at: directory)
        try Data("not a folder".utf8).write(to: directory)
        let error = await #expect(throws: BearerError.self) { try await store.save(state, key: "default") }
        #expect(error?.kind == .storageFailure)
        #expect(error?.reason.contains("is not a folder") == true)
    }

    @Test("The keys of a folder that does not exist yet are none, and saved sessions are listed")
    func keysOfMissingFolder() async throws {
        defer { cleanUp() }
        #expect(try await store.keys().isEmpty)
        try await store.save(state, key: "work")
        try await store.save(state, key: "default")
        #expect(try await store.keys() == ["default", "work"])
    }

    @Test("The exclusive lock lets one task in at a time, across store instances")
    func lockExcludes() async throws {
        defer { cleanUp() }
        let counter = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                let store = FileSessionStore(directory: directory)
                group.addTask {
                    try await store.withExclusiveAccess(to: "default") { _ in
                        await counter.enter()
                        for _ in 0..<(index % 3) { await Task.yield() }
                        await counter.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(await counter.entries == 40)
        #expect(await counter.maximumInside == 1)
    }

    @Test("Two sessions on separate store instances refresh once between them")
    func sessionsOnSeparateStores() async throws {
        defer { cleanUp() }
        let clock = TestClock(Fixtures.epoch)
        try await store.save(state, key: "default")
        let transport = RecordingTransport(replies: [AuthSessionTests.refreshReply], responseDelay: .milliseconds(20))
        let first = try #require(
            try await AuthSession.restore(
                key: "default", from: FileSessionStore(directory: directory), transport: transport,
                clock: clock.wallClock)
        )
        let second = try #require(
            try await AuthSession.restore(
                key: "default", from: FileSessionStore(directory: directory), transport: transport,
                clock: clock.wallClock)
        )
        async let a = first.validAccessToken()
        async let b = second.validAccessToken()
        #expect(try await [a, b].map(\.value) == ["at-2", "at-2"])
        #expect(await transport.requests.count == 1)
        #expect(try await store.load(key: "default")?.refreshToken?.value == "rt-2")
    }
}

private actor Counter {
    private(set) var entries = 0
    private(set) var maximumInside = 0
    private var inside = 0

    func enter() {
        entries += 1
        inside += 1
        maximumInside = max(maximumInside, inside)
    }

    func leave() {
        inside -= 1
    }
}
