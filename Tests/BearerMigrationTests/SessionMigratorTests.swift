import Bearer
import BearerMigration
import Foundation
import Testing

/// A destination store that fails one chosen step, once.
private actor FailingDestination: SessionStore {
    enum Step: String, CaseIterable, Sendable {
        case firstLoad, save, loadBack, lock
    }

    private let base = InMemorySessionStore()
    private var failing: Step?
    private var loads = 0
    private var corruptsSaves = false

    init(failing: Step? = nil, corruptsSaves: Bool = false) {
        self.failing = failing
        self.corruptsSaves = corruptsSaves
    }

    func stopFailing() {
        failing = nil
        corruptsSaves = false
        loads = 0
    }

    private func fail(_ step: Step) throws {
        if failing == step {
            failing = nil
            throw BearerError.storageFailure("injected failure at \(step.rawValue)")
        }
    }

    func load(key: String) async throws -> AuthState? {
        loads += 1
        try fail(loads == 1 ? .firstLoad : .loadBack)
        return try await base.load(key: key)
    }

    private func countLoad() throws {
        loads += 1
        try fail(loads == 1 ? .firstLoad : .loadBack)
    }

    private func stateToSave(_ state: AuthState) throws -> AuthState {
        try fail(.save)
        var stored = state
        if corruptsSaves { stored.grantedScopes.append("tampered") }
        return stored
    }

    func keys() async throws -> [String] {
        try await base.keys()
    }

    nonisolated func withExclusiveAccess<Result: Sendable>(
        to key: String,
        _ body: @Sendable (_ access: Access) async throws -> Result
    ) async throws -> Result {
        try await failLock()
        return try await base.withExclusiveAccess(to: key) { access in
            try await body(Access(store: self, base: access))
        }
    }

    /// The underlying access, with the injected failures.
    struct Access: ExclusiveSessionAccess {
        let store: FailingDestination
        let base: InMemorySessionStore.Access

        func load() async throws -> AuthState? {
            try await store.countLoad()
            return try await base.load()
        }

        func save(_ state: AuthState, replacing expected: AuthState?) async throws {
            try await base.save(try await store.stateToSave(state), replacing: expected)
        }

        func write(_ state: AuthState) async throws {
            try await base.write(try await store.stateToSave(state))
        }

        func remove() async throws {
            try await base.remove()
        }
    }

    private func failLock() throws {
        try fail(.lock)
    }

    func stored(_ key: String) async throws -> AuthState? {
        try await base.load(key: key)
    }
}

/// A legacy store that fails reading or removing, once.
private actor FailingLegacy: LegacyItemStore {
    enum Step: String, CaseIterable, Sendable {
        case read, remove
    }

    private let base: InMemoryLegacyStore
    private var failing: Step?

    init(items: [String: Data], failing: Step? = nil) {
        base = InMemoryLegacyStore(items)
        self.failing = failing
    }

    private func fail(_ step: Step) throws {
        if failing == step {
            failing = nil
            throw MigrationError.storeFailure("injected failure at \(step.rawValue)")
        }
    }

    func read(_ name: String) async throws -> Data? {
        try fail(.read)
        return try await base.read(name)
    }

    func write(_ data: Data, to name: String) async throws {
        try await base.write(data, to: name)
    }

    func remove(_ name: String) async throws {
        try fail(.remove)
        try await base.remove(name)
    }

    func item(_ name: String) async throws -> Data? {
        try await base.read(name)
    }
}

@Suite("SessionMigrator")
struct SessionMigratorTests {
    private let item = "MyApp-Google"

    private func archive() throws -> Data {
        try Fixture.data("gtmappauth-google.archive")
    }

    private func expected() throws -> AuthState {
        try GTMAppAuthArchive.decode(try archive())
    }

    @Test("A legacy item is saved, verified and then removed")
    func migrates() async throws {
        let legacy = FailingLegacy(items: [item: try archive()])
        let destination = FailingDestination()
        let migrator = SessionMigrator(from: legacy, to: destination) { try GTMAppAuthArchive.decode($0) }
        #expect(try await migrator.migrate(item: item, to: "default") == .migrated)
        #expect(try await destination.stored("default") == (try expected()))
        #expect(try await legacy.item(item) == nil)
        #expect(try await migrator.migrate(item: item, to: "default") == .destinationAlreadyPresent)
        #expect(try await migrator.migrate(item: "absent", to: "other") == .nothingToMigrate)
    }

    @Test("An existing destination session is never overwritten by older data")
    func keepsDestination() async throws {
        let legacy = FailingLegacy(items: [item: try archive()])
        let destination = FailingDestination()
        var newer = try expected()
        newer.refreshToken = RefreshToken("newer-refresh-token")
        try await destination.save(newer, key: "default")
        await destination.stopFailing()
        let migrator = SessionMigrator(from: legacy, to: destination) { try GTMAppAuthArchive.decode($0) }
        #expect(try await migrator.migrate(item: item, to: "default") == .destinationAlreadyPresent)
        #expect(try await destination.stored("default")?.refreshToken?.value == "newer-refresh-token")
        #expect(try await legacy.item(item) != nil, "a different legacy session is left alone")
    }

    @Test(
        "A failure at any destination step keeps a readable copy, and a second run completes",
        arguments: FailingDestination.Step.allCases)
    fileprivate func destinationFailures(step: FailingDestination.Step) async throws {
        let legacy = FailingLegacy(items: [item: try archive()])
        let destination = FailingDestination(failing: step)
        let migrator = SessionMigrator(from: legacy, to: destination) { try GTMAppAuthArchive.decode($0) }
        await #expect(throws: (any Error).self) { try await migrator.migrate(item: item, to: "default") }
        try await expectReadableCopy(legacy: legacy, destination: destination)
        #expect(try await migrator.migrate(item: item, to: "default") == .migrated)
        #expect(try await destination.stored("default") == (try expected()))
        #expect(try await legacy.item(item) == nil)
    }

    @Test(
        "A failure reading or removing the legacy item keeps a readable copy, and a second run completes",
        arguments: FailingLegacy.Step.allCases)
    fileprivate func legacyFailures(step: FailingLegacy.Step) async throws {
        let legacy = FailingLegacy(items: [item: try archive()], failing: step)
        let destination = FailingDestination()
        let migrator = SessionMigrator(from: legacy, to: destination) { try GTMAppAuthArchive.decode($0) }
        await #expect(throws: MigrationError.self) { try await migrator.migrate(item: item, to: "default") }
        try await expectReadableCopy(legacy: legacy, destination: destination)
        let second = try await migrator.migrate(item: item, to: "default")
        #expect(second == .migrated || second == .destinationAlreadyPresent)
        #expect(try await destination.stored("default") == (try expected()))
        #expect(try await legacy.item(item) == nil, "the interrupted run is finished")
    }

    @Test("A session that does not read back the same is removed from the destination; the legacy item stays")
    func verificationFailure() async throws {
        let legacy = FailingLegacy(items: [item: try archive()])
        let destination = FailingDestination(corruptsSaves: true)
        let migrator = SessionMigrator(from: legacy, to: destination) { try GTMAppAuthArchive.decode($0) }
        let error = await #expect(throws: MigrationError.self) { try await migrator.migrate(item: item, to: "default") }
        #expect(error?.kind == .verificationFailed)
        #expect(try await destination.stored("default") == nil)
        #expect(try await legacy.item(item) == (try archive()))
        await destination.stopFailing()
        #expect(try await migrator.migrate(item: item, to: "default") == .migrated)
    }

    @Test("An undecodable legacy item is reported and left in place")
    func undecodableItem() async throws {
        let garbage = Data("bplist00 garbage".utf8)
        let legacy = FailingLegacy(items: [item: garbage])
        let destination = FailingDestination()
        let migrator = SessionMigrator(from: legacy, to: destination) { try GTMAppAuthArchive.decode($0) }
        let results = await migrator.migrate([(item: item, key: "default"), (item: "absent", key: "other")])
        #expect(results.count == 2)
        if case .failure(let error) = results[0].result {
            #expect((error as? MigrationError)?.kind == .malformedArchive)
        } else {
            Issue.record("expected a failure")
        }
        if case .success(let outcome) = results[1].result {
            #expect(outcome == .nothingToMigrate)
        } else {
            Issue.record("expected success")
        }
        #expect(try await legacy.item(item) == garbage)
    }

    @Test("Migration into a FileSessionStore writes a private file and empties a legacy folder")
    func intoFileStore() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bearer-migration-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let legacy = LegacyDirectoryStore(directory: root.appendingPathComponent("legacy"))
        try await legacy.write(try Fixture.data("adc-authorized-user.json"), to: "application_default_credentials.json")
        let store = FileSessionStore(directory: root.appendingPathComponent("sessions"))
        let migrator = SessionMigrator(from: legacy, to: store) { try ApplicationDefaultCredentials.decode($0) }
        #expect(try await migrator.migrate(item: "application_default_credentials.json", to: "gcloud") == .migrated)
        #expect(try await store.load(key: "gcloud")?.refreshToken?.value == "fixture-refresh-token")
        #expect(try await legacy.read("application_default_credentials.json") == nil)
    }

    private func expectReadableCopy(legacy: FailingLegacy, destination: FailingDestination) async throws {
        let expected = try expected()
        let legacyCopy = try await legacy.item(item).flatMap { try? GTMAppAuthArchive.decode($0) }
        let destinationCopy = try await destination.stored("default")
        #expect(legacyCopy == expected || destinationCopy == expected, "at least one readable copy remains")
    }
}
