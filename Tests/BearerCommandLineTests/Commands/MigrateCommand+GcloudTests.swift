import Bearer
import CSQLite
import Foundation
import Testing

@_spi(CommandLine) @_spi(Migration) @testable import BearerCore

@Suite("migrate --from gcloud: every account of gcloud's credential database")
struct MigrateGcloudTests {
    /// A user credential of gcloud's, as `gcloud auth login` stores it.
    static func userCredential(_ mark: String) -> String {
        """
        {"client_id": "32555940559.apps.googleusercontent.com", "client_secret": "fixture-secret-\(mark)",
         "refresh_token": "fixture-refresh-\(mark)", "revoke_uri": "https://oauth2.googleapis.com/revoke",
         "scopes": ["openid", "https://www.googleapis.com/auth/userinfo.email"],
         "token_uri": "https://oauth2.googleapis.com/token", "type": "authorized_user"}
        """
    }

    /// Writes a database shaped as gcloud's with `rows` (account, JSON value) at `path`.
    static func database(at path: String, rows: [(String, String)]) throws {
        var database: OpaquePointer?
        try #require(sqlite3_open(path, &database) == SQLITE_OK)
        defer { sqlite3_close(database) }
        try #require(
            sqlite3_exec(
                database, "CREATE TABLE IF NOT EXISTS \"credentials\" (account_id TEXT PRIMARY KEY, value BLOB)", nil,
                nil, nil) == SQLITE_OK)
        for (account, value) in rows {
            var statement: OpaquePointer?
            try #require(
                sqlite3_prepare_v2(database, "INSERT INTO credentials VALUES (?, ?)", -1, &statement, nil) == SQLITE_OK)
            defer { sqlite3_finalize(statement) }
            let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
            sqlite3_bind_text(statement, 1, account, -1, transient)
            let bytes = Array(value.utf8)
            sqlite3_bind_blob(statement, 2, bytes, Int32(bytes.count), transient)
            try #require(sqlite3_step(statement) == SQLITE_DONE)
        }
    }

    @Test("Each user account comes in as an account named by its e-mail; a service account is skipped and said")
    func importsEveryUser() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let path = try fixture.file("credentials.db", Data())
        try FileManager.default.removeItem(atPath: path)
        try Self.database(
            at: path,
            rows: [
                ("ada@work.example", Self.userCredential("work")),
                ("ada@home.example", Self.userCredential("home")),
                ("deployer@project.iam.gserviceaccount.com", #"{"type": "service_account", "private_key": "x"}"#),
            ])
        let (status, output) = await fixture.run(["migrate", "--from", "gcloud", path])
        #expect(status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("Imported ada@home.example, ada@work.example from gcloud into profile default"))
        #expect(output.stderr.contains("deployer@project.iam.gserviceaccount.com (service_account)"))
        #expect(!output.stderr.contains("fixture-refresh") && !output.stderr.contains("fixture-secret"))
        let accounts = try await AccountList(store: fixture.store, key: "default").accounts()
        #expect(Set(accounts.compactMap { $0.user?.email }) == ["ada@work.example", "ada@home.example"])
        let work = try #require(accounts.first { $0.user?.email == "ada@work.example" })
        #expect(try await fixture.store.load(key: work.key)?.refreshToken?.value == "fixture-refresh-work")

        let again = await fixture.run(["migrate", "--from", "gcloud", path])
        #expect(again.status == 0)
        #expect(again.output.stderr.contains("Imported no account"))
        #expect(
            again.output.stderr.contains("ada@work.example (already an account of the profile; --force replaces it)"))
        #expect(try await AccountList(store: fixture.store, key: "default").accounts().count == 2)

        try FileManager.default.removeItem(atPath: path)
        try Self.database(at: path, rows: [("ada@work.example", Self.userCredential("rotated"))])
        let forced = await fixture.run(["migrate", "--from", "gcloud", path, "--force"])
        #expect(forced.status == 0, "\(forced.output.stderr)")
        #expect(try await fixture.store.load(key: work.key)?.refreshToken?.value == "fixture-refresh-rotated")
        #expect(try await AccountList(store: fixture.store, key: "default").accounts().count == 2)
    }

    @Test("A --client-id that contradicts a row refuses the whole import before anything is saved")
    func contradictingClient() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let path = try fixture.file("credentials.db", Data())
        try FileManager.default.removeItem(atPath: path)
        try Self.database(at: path, rows: [("ada@work.example", Self.userCredential("work"))])
        let (status, output) = await fixture.run(["migrate", "--from", "gcloud", path, "--client-id", "another"])
        #expect(status == 64, "\(output.stderr)")
        #expect(try await fixture.store.keys().isEmpty)
    }

    @Test("A session naming no user is not imported beside named accounts (exit 64), with or without --force")
    func unnamedBesideNamed() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        _ = try await AccountsCommandTests.twoAccounts(fixture)
        let adc = try fixture.file(
            "adc.json",
            Data(
                #"{"type":"authorized_user","client_id":"c.apps.googleusercontent.com","client_secret":"s","refresh_token":"r"}"#
                    .utf8))
        let before = try await fixture.store.keys()
        for extra in [[], ["--force"]] {
            let (status, output) = await fixture.run(["migrate", "--from", "adc", adc] + extra)
            #expect(status == 64, "\(output.stderr)")
            #expect(output.stderr.contains("names no user") && output.stderr.contains("another --profile"))
        }
        #expect(try await fixture.store.keys() == before)
    }

    @Test("A file that is not gcloud's database is refused with SQLite's reason (exit 65), and nothing is saved")
    func notADatabase() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let path = try fixture.file("credentials.db", Data("not a database, just text".utf8))
        let (status, output) = await fixture.run(["migrate", "--from", "gcloud", path])
        #expect(status == 65, "\(output.stderr)")
        #expect(output.stderr.contains("SQLite"))
        #expect(try await fixture.store.keys().isEmpty)
        let empty = try fixture.file("empty.db", Data())
        let noTable = await fixture.run(["migrate", "--from", "gcloud", empty])
        #expect(noTable.status == 65)
        #expect(noTable.output.stderr.contains("no credentials table"))
    }
}
