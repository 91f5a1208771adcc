import Bearer
import BearerCommandLine
import BearerTestSupport
import Foundation
import Testing

@_spi(CommandLine) @_spi(Migration) @testable import BearerCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("bearer accounts, --account, $BEARER_ACCOUNT and .bearer-account")
struct AccountsCommandTests {
    /// A session of `email`'s whose access token is `token`.
    static func session(_ email: String, subject: String, token: String) throws -> AuthState {
        var state = try CommandFixture.session()
        state.user = AuthState.User(subject: subject, email: email)
        state.accessToken = AccessToken(token)
        state.refreshToken = RefreshToken("refresh-" + token)
        return state
    }

    /// A profile with two accounts, ada's (the first, the default) and bob's.
    static func twoAccounts(_ fixture: CommandFixture, profile: String = "default") async throws -> String {
        let accounts = AccountList(store: fixture.store, key: profile)
        try await accounts.add(try session("ada@example.com", subject: "1", token: "ada-token"))
        return try await accounts.add(try session("bob@example.com", subject: "2", token: "bob-token")).key
    }

    @Test("accounts lists each account with its user, server, state and key, the default marked, and no token")
    func lists() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let bobKey = try await Self.twoAccounts(fixture)
        let (status, output) = await fixture.run(["accounts"])
        #expect(status == 0)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("* ada@example.com") == true)
        #expect(lines.last?.hasPrefix("  bob@example.com") == true && lines.last?.contains(bobKey) == true)
        #expect(!output.stdout.contains("token") && !output.stderr.contains("token"))

        let (jsonStatus, json) = await fixture.run(["accounts", "--json"])
        #expect(jsonStatus == 0)
        let entries = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(entries.map { $0["email"] as? String } == ["ada@example.com", "bob@example.com"])
        #expect(entries.map { $0["default"] as? Bool } == [true, false])
        #expect(!json.stdout.contains("ada-token") && !json.stdout.contains("refresh-"))
    }

    @Test("An empty profile lists nothing and says how to sign in")
    func emptyProfile() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        let (status, output) = await fixture.run(["accounts", "--profile", "work"])
        #expect(status == 0)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("bearer login --profile work"))
    }

    @Test("--account and $BEARER_ACCOUNT pick an account for one command; the default stays")
    func choosingPerCommand() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        _ = try await Self.twoAccounts(fixture)
        #expect(await fixture.run(["token"]).output.stdout == "ada-token\n")
        #expect(await fixture.run(["token", "--account", "BOB@example.com"]).output.stdout == "bob-token\n")
        #expect(await fixture.run(["token"], variables: ["BEARER_ACCOUNT": "2"]).output.stdout == "bob-token\n")
        #expect(
            await fixture.run(["token", "--account", "ada@example.com"], variables: ["BEARER_ACCOUNT": "2"])
                .output.stdout == "ada-token\n", "--account comes before $BEARER_ACCOUNT")
        #expect(await fixture.run(["token"]).output.stdout == "ada-token\n")
        let unknown = await fixture.run(["token", "--account", "carol@example.com"])
        #expect(unknown.status == 64)
        #expect(unknown.output.stderr.contains("ada@example.com") && unknown.output.stdout.isEmpty)
    }

    @Test("The fast path answers --account with that account's token, and leaves an unknown one to the whole tool")
    func fastPath() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        _ = try await Self.twoAccounts(fixture)
        let capture = Capture()
        let local = LocalEnvironment(
            variables: ["BEARER_CONFIG_DIR": fixture.folder.path], console: capture.console,
            clock: .fixed(Date(timeIntervalSince1970: 1_800_000_000)), workingDirectory: nil)
        #expect(FastPath.run(["token", "--account", "bob@example.com"], environment: local) == 0)
        #expect(capture.stdout == "bob-token\n")
        #expect(FastPath.run(["token", "--account", "nobody"], environment: local) == nil)
    }

    @Test("accounts default makes another account the default of every later command")
    func choosingTheDefault() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        _ = try await Self.twoAccounts(fixture)
        let (status, output) = await fixture.run(["accounts", "default", "bob@example.com"])
        #expect(status == 0)
        #expect(output.stderr.contains("bob@example.com is now the default account of profile default"))
        #expect(await fixture.run(["token"]).output.stdout == "bob-token\n")
        #expect(await fixture.run(["accounts", "default"]).status == 64)
        #expect(await fixture.run(["accounts", "switch", "x"]).status == 64)
    }

    @Test("logout --account removes and revokes that account only; the others keep working")
    func logoutOne() async throws {
        let fixture = CommandFixture(replies: [.json(200, "{}"), .json(200, "{}")])
        defer { fixture.removeAll() }
        let bobKey = try await Self.twoAccounts(fixture)
        let (status, _) = await fixture.run(["logout", "--account", "bob@example.com"])
        #expect(status == 0)
        let revoked = await fixture.transport.requests.map { String(decoding: $0.body ?? Data(), as: UTF8.self) }
        #expect(revoked.contains { $0.contains("refresh-bob-token") })
        #expect(!revoked.contains { $0.contains("refresh-ada-token") })
        #expect(try await fixture.store.load(key: bobKey) == nil)
        #expect(await fixture.run(["token"]).output.stdout == "ada-token\n")
    }

    @Test("A resource sign-in is refused in a profile with accounts it would replace, before anything is sent")
    func resourceLoginKeepsAccounts() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        _ = try await Self.twoAccounts(fixture)
        let before = try await fixture.store.keys()
        let (status, output) = await fixture.run(["login", "https://mcp.example.com/mcp", "--no-open"])
        #expect(status == 64)
        #expect(output.stderr.contains("ada@example.com") && output.stderr.contains("another --profile"))
        #expect(await fixture.transport.requests.isEmpty)
        #expect(try await fixture.store.keys() == before)
    }

    @Test("An unreadable account that may be the default is never replaced by another: exit 64 unless one is named")
    func unreadableDefault() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        _ = try await Self.twoAccounts(fixture)
        let first = try fixture.store.fileURL(for: "default")
        try Data("not a session".utf8).write(to: first)
        let token = await fixture.run(["token"])
        #expect(token.status == 64)
        #expect(token.output.stdout.isEmpty)
        #expect(token.output.stderr.contains("cannot be read") && token.output.stderr.contains("may be the default"))
        #expect(await fixture.run(["token", "--account", "bob@example.com"]).output.stdout == "bob-token\n")
        let logout = await fixture.run(["logout"])
        #expect(logout.status == 64, "nothing is revoked for a default that cannot be told")
        #expect(await fixture.transport.requests.isEmpty)
        #expect(await fixture.run(["logout", "--account", "default"]).status == 1, "the corrupt one is removed")
        #expect(await fixture.run(["token"]).output.stdout == "bob-token\n")
    }

    @Test("An empty --account counts as none; login, migrate, accounts and client-key take no --account")
    func accountOptionEdges() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        _ = try await Self.twoAccounts(fixture)
        let empty = await fixture.run(["token", "--account", ""], variables: ["BEARER_ACCOUNT": "bob@example.com"])
        #expect(empty.output.stdout == "bob-token\n")
        for command in [
            ["login", "--google", "--client-id", "x", "--scope", "email"], ["accounts"], ["client-key", "k"],
        ] {
            let refused = await fixture.run(command + ["--account", "bob@example.com"])
            #expect(refused.status == 64, "\(command)")
            #expect(refused.output.stderr.contains("takes no --account"))
        }
        let long = String(repeating: "p", count: 184)
        let tooLong = await fixture.run(["status", "--profile", long])
        #expect(tooLong.status == 64)
        #expect(tooLong.output.stderr.contains("at most 183 bytes"))
        #expect(await fixture.run(["status", "--profile", String(repeating: "p", count: 183)]).status == 77)
    }

    @Test("Two token commands for two accounts at once each print their own account's token")
    func parallelAccounts() async throws {
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        _ = try await Self.twoAccounts(fixture)
        async let ada = fixture.run(["token", "--account", "ada@example.com"])
        async let bob = fixture.run(["token", "--account", "bob@example.com"])
        let (first, second) = await (ada, bob)
        #expect(first.output.stdout == "ada-token\n")
        #expect(second.output.stdout == "bob-token\n")
    }
}

@Suite("The .bearer-account rule files")
struct AccountRulesTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-rules-\(UUID().uuidString)")

    private func write(_ text: String, in folder: URL, mode: mode_t = 0o600) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(AccountRules.fileName)
        try Data(text.utf8).write(to: file)
        #expect(chmod(file.path, mode) == 0)
    }

    @Test("The nearest file with a line for the profile wins; comments, blanks and spaces are fine")
    func nearestWins() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let project = root.appendingPathComponent("work/project/src")
        try write("default = outer@example.com\nstaging = tester\n", in: root)
        try write("# work\n\n  staging\t=  inner@example.com \r\n", in: root.appendingPathComponent("work/project"))
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        #expect(try AccountRules.account(for: "staging", from: project.path).account == "inner@example.com")
        #expect(try AccountRules.account(for: "default", from: project.path).account == "outer@example.com")
        let other = try AccountRules.account(for: "other", from: project.path)
        #expect(other.account == nil && other.skipped.isEmpty)
    }

    @Test("A file others may write is skipped with a warning; a malformed line is a usage error naming the file")
    func unsafeAndMalformed() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try write("default = planted@example.com\n", in: root, mode: 0o666)
        let planted = try AccountRules.account(for: "default", from: root.path)
        #expect(planted.account == nil)
        #expect(planted.skipped.count == 1 && planted.skipped.first?.contains("chmod go-w") == true)
        try write("default ada@example.com\n", in: root)
        #expect(throws: UsageError.self) {
            try AccountRules.account(for: "default", from: root.path)
        }
        try FileManager.default.removeItem(at: root.appendingPathComponent(AccountRules.fileName))
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent(AccountRules.fileName), withIntermediateDirectories: true)
        #expect(
            try AccountRules.account(for: "default", from: root.path).skipped.first?.contains("regular file") == true)
    }

    @Test("A symbolic link is not followed")
    func symbolicLink() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try write("default = target@example.com\n", in: root.appendingPathComponent("elsewhere"))
        let folder = root.appendingPathComponent("linked")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent(AccountRules.fileName).path,
            withDestinationPath: root.appendingPathComponent("elsewhere/\(AccountRules.fileName)").path)
        let finding = try AccountRules.account(for: "default", from: folder.path)
        #expect(finding.account == nil)
        #expect(finding.skipped.first?.contains("symbolic link") == true)
    }

    @Test(
        "The folders above a path end at the root",
        arguments: [
            ("/a/b/c", "/a/b"), ("/a/b/", "/a"), ("/a", "/"), ("/", nil), ("relative", nil),
        ])
    func parents(path: String, parent: String?) {
        #expect(AccountRules.parentFolder(of: path) == parent)
    }

    @Test("A rule file picks the account of the token command, after --account and $BEARER_ACCOUNT")
    func ruleInTheTool() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let fixture = CommandFixture()
        defer { fixture.removeAll() }
        _ = try await AccountsCommandTests.twoAccounts(fixture)
        try write("default = bob@example.com\n", in: root)
        let capture = Capture()
        func local(_ variables: [String: String] = [:]) -> LocalEnvironment {
            LocalEnvironment(
                variables: variables.merging(["BEARER_CONFIG_DIR": fixture.folder.path]) { _, fixed in fixed },
                console: capture.console, clock: .fixed(Date(timeIntervalSince1970: 1_800_000_000)),
                workingDirectory: root.path)
        }
        #expect(FastPath.run(["token"], environment: local()) == 0)
        #expect(FastPath.run(["token"], environment: local(["BEARER_ACCOUNT": "ada@example.com"])) == 0)
        #expect(capture.stdout == "bob-token\nada-token\n")
    }
}
