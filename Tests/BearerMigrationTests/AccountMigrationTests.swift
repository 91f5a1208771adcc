import Bearer
import BearerMigration
import Foundation
import Testing

@Suite("Several legacy sessions come in as accounts")
struct AccountMigrationTests {
    /// The Google fixture's session, signed in as `email` (subject `subject`) with its own tokens.
    static func session(_ email: String, subject: String, token: String) throws -> AuthState {
        var state = try GTMAppAuthArchive.decode(try Fixture.data("gtmappauth-google.archive"))
        state.idToken = nil
        state.user = AuthState.User(subject: subject, email: email)
        state.accessToken = AccessToken("access-" + token)
        state.refreshToken = RefreshToken("refresh-" + token)
        return state
    }

    @Test("Each GTMAppAuth item of another user becomes an account; none replaces another; the legacy items go")
    func gtmAppAuthAccounts() async throws {
        let work = try Self.session("ada@work.example", subject: "101", token: "work")
        let home = try Self.session("ada@home.example", subject: "202", token: "home")
        let legacy = InMemoryLegacyStore()
        try await legacy.write(GTMAppAuthArchive.encode(work), to: "MyApp-Google-work")
        try await legacy.write(GTMAppAuthArchive.encode(home), to: "MyApp-Google-home")
        let store = InMemorySessionStore()
        let accounts = AccountList(store: store, key: "google")
        let migrator = SessionMigrator(from: legacy, to: store) { try GTMAppAuthArchive.decode($0) }
        #expect(try await migrator.migrate(item: "MyApp-Google-work", toAccountsOf: "google") == .migrated)
        #expect(try await migrator.migrate(item: "MyApp-Google-home", toAccountsOf: "google") == .migrated)
        let listed = try await accounts.accounts()
        #expect(listed.map { $0.user?.email } == ["ada@work.example", "ada@home.example"])
        #expect(listed.first?.isDefault == true)
        #expect(try await legacy.read("MyApp-Google-work") == nil)
        #expect(try await legacy.read("MyApp-Google-home") == nil)
        let homeAccount = try await accounts.account(named: "ada@home.example")
        #expect(try await store.load(key: homeAccount.key)?.refreshToken?.value == "refresh-home")
    }

    @Test("An item of a user already in the list is kept out, and removed only when it holds the same session")
    func sameUserKept() async throws {
        let saved = try Self.session("ada@work.example", subject: "101", token: "newer")
        let older = try Self.session("ada@work.example", subject: "101", token: "older")
        let store = InMemorySessionStore()
        let accounts = AccountList(store: store, key: "google")
        try await accounts.add(saved)
        let legacy = InMemoryLegacyStore()
        try await legacy.write(GTMAppAuthArchive.encode(older), to: "older")
        try await legacy.write(GTMAppAuthArchive.encode(saved), to: "same")
        let migrator = SessionMigrator(from: legacy, to: store) { try GTMAppAuthArchive.decode($0) }
        #expect(try await migrator.migrate(item: "older", toAccountsOf: "google") == .destinationAlreadyPresent)
        #expect(try await legacy.read("older") != nil, "a different session of the same user is left in place")
        #expect(try await store.load(key: "google")?.refreshToken?.value == "refresh-newer")
        // The account's default choice, which the legacy item never had, does not keep it from matching.
        try await accounts.makeDefault(try await accounts.account(named: "ada@work.example"))
        #expect(try await migrator.migrate(item: "same", toAccountsOf: "google") == .destinationAlreadyPresent)
        #expect(try await legacy.read("same") == nil)
        #expect(try await accounts.accounts().count == 1)
        #expect(try await migrator.migrate(item: "absent", toAccountsOf: "google") == .nothingToMigrate)
    }

    @Test("A gcloud credential naming no user is refused beside named accounts, and kept")
    func unnamedRefused() async throws {
        let store = InMemorySessionStore()
        let accounts = AccountList(store: store, key: "google")
        try await accounts.add(try Self.session("ada@work.example", subject: "101", token: "work"))
        let legacy = InMemoryLegacyStore()
        try await legacy.write(try Fixture.data("adc-authorized-user.json"), to: "adc")
        let migrator = SessionMigrator(from: legacy, to: store) { try ApplicationDefaultCredentials.decode($0) }
        let error = await #expect(throws: BearerError.self) {
            try await migrator.migrate(item: "adc", toAccountsOf: "google")
        }
        #expect(error?.kind == .unknownAccount)
        #expect(try await legacy.read("adc") != nil)
        #expect(try await accounts.accounts().count == 1)
    }
}
