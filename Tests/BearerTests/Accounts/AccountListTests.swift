import Bearer
import BearerTestSupport
import Foundation
import Testing

@_spi(Fleet) @_spi(Internals) @_spi(CommandLine) @_spi(Migration) @testable import BearerCore

@Suite("Accounts: several users under one key, chosen per call")
struct AccountListTests {
    static func state(
        subject: String?, email: String? = nil, name: String? = nil, token: String = UUID().uuidString,
        client: Client = Fixtures.publicClient
    ) -> AuthState {
        var state = AuthState(
            server: Fixtures.server, client: client, accessToken: AccessToken("at-" + token),
            accessTokenExpiresAt: Fixtures.epoch.addingTimeInterval(3600), refreshToken: RefreshToken("rt-" + token),
            grantedScopes: ["openid", "email"])
        if subject != nil || email != nil {
            state.user = AuthState.User(subject: subject ?? "", email: email, name: name)
        }
        return state
    }

    @Test("The first account takes the list's key, a second user gets a key of its own, and neither replaces the other")
    func secondUserIsAdded() async throws {
        let store = InMemorySessionStore()
        let accounts = AccountList(store: store, key: "main")
        let ada = try await accounts.add(Self.state(subject: "ada", email: "ada@example.com", token: "ada"))
        let bob = try await accounts.add(Self.state(subject: "bob", email: "bob@example.com", token: "bob"))
        #expect(ada.key == "main")
        #expect(bob.key.hasPrefix("main+") && bob.key.count == "main+".count + 16)
        let listed = try await accounts.accounts()
        #expect(listed.map(\.key) == ["main", bob.key])
        #expect(listed.map(\.isDefault) == [true, false], "the first one signed in is the default")
        #expect(try await store.load(key: "main")?.accessToken?.value == "at-ada")
        #expect(try await store.load(key: bob.key)?.accessToken?.value == "at-bob")
    }

    @Test("The same user signing in again updates that account, and it stays the default", arguments: [true, false])
    func sameUserUpdates(bySubject: Bool) async throws {
        let store = InMemorySessionStore()
        let accounts = AccountList(store: store, key: "main")
        try await accounts.add(Self.state(subject: "ada", email: "ada@example.com", token: "one"))
        let bob = try await accounts.add(Self.state(subject: "bob", email: "bob@example.com", token: "bob"))
        try await accounts.makeDefault(bob, clock: .fixed(Fixtures.epoch))
        let again =
            bySubject
            ? Self.state(subject: "bob", email: "bob@new.example", token: "two")
            : Self.state(subject: nil, email: "BOB@example.com", token: "two")
        let updated = try await accounts.add(again)
        #expect(updated.key == bob.key)
        let listed = try await accounts.accounts()
        #expect(listed.count == 2, "no duplicate")
        #expect(try await store.load(key: bob.key)?.accessToken?.value == "at-two")
        #expect(try await accounts.defaultAccount()?.key == bob.key, "the replaced account's choice is kept")
        #expect(try await store.load(key: "main")?.accessToken?.value == "at-one")
    }

    @Test("Another client or server at the same user is another account")
    func otherClientIsAnotherAccount() async throws {
        let accounts = AccountList(store: InMemorySessionStore(), key: "main")
        try await accounts.add(Self.state(subject: "ada", email: "ada@example.com"))
        let other = try await accounts.add(
            Self.state(subject: "ada", email: "ada@example.com", client: Fixtures.confidentialClient))
        #expect(other.key != "main")
        #expect(try await accounts.accounts().count == 2)
    }

    @Test("makeDefault chooses in the account's own item; a later choice wins; using an account changes nothing")
    func choosingTheDefault() async throws {
        let store = InMemorySessionStore()
        let accounts = AccountList(store: store, key: "main")
        let ada = try await accounts.add(Self.state(subject: "ada", email: "ada@example.com", token: "ada"))
        let bob = try await accounts.add(Self.state(subject: "bob", email: "bob@example.com", token: "bob"))
        let before = try await store.load(key: ada.key)
        try await accounts.makeDefault(bob, clock: .fixed(Fixtures.epoch))
        #expect(try await accounts.defaultAccount()?.key == bob.key)
        #expect(try await store.load(key: ada.key) == before, "no other account's item is touched")
        // A clock that went back still makes the later choice win.
        try await accounts.makeDefault(ada, clock: .fixed(Fixtures.epoch.addingTimeInterval(-600)))
        #expect(try await accounts.defaultAccount()?.key == ada.key)
        let session = try await accounts.session(
            for: bob, transport: RecordingTransport(), clock: .fixed(Fixtures.epoch))
        #expect(try await session.validAccessToken().value == "at-bob")
        #expect(try await accounts.defaultAccount()?.key == ada.key, "a token for bob leaves ada the default")
    }

    @Test("A refresh keeps the account's default choice")
    func refreshKeepsChoice() async throws {
        let store = InMemorySessionStore()
        let accounts = AccountList(store: store, key: "main")
        try await accounts.add(Self.state(subject: "ada", email: "ada@example.com"))
        let bob = try await accounts.add(Self.state(subject: "bob", email: "bob@example.com", token: "bob"))
        try await accounts.makeDefault(bob, clock: .fixed(Fixtures.epoch))
        let transport = RecordingTransport(replies: [
            .json(200, #"{"access_token":"at-fresh","token_type":"Bearer","expires_in":3600}"#)
        ])
        let later = WallClock.fixed(Fixtures.epoch.addingTimeInterval(7200))
        let session = try await accounts.session(for: bob, transport: transport, clock: later)
        #expect(try await session.validAccessToken().value == "at-fresh")
        #expect(try await store.load(key: bob.key)?.accessToken?.value == "at-fresh")
        #expect(try await accounts.defaultAccount()?.key == bob.key)
    }

    @Test("A refresh whose ID token names another user is refused: that account needs a sign-in, no other changes")
    func refreshAsAnotherUser() async throws {
        let store = InMemorySessionStore()
        let accounts = AccountList(store: store, key: "main")
        let ada = try await accounts.add(Self.state(subject: "ada", email: "ada@example.com", token: "ada"))
        let request = try Fixtures.request()
        var bobState = Self.state(subject: "bob", email: "bob@example.com", token: "bob")
        bobState.idToken = try IDToken(Fixtures.idToken(for: request, subject: "bob"))
        bobState.accessTokenExpiresAt = Fixtures.epoch
        let bob = try await accounts.add(bobState)
        let adaBefore = try await store.load(key: ada.key)
        let asAda = Fixtures.idToken(for: request, subject: "ada")
        let transport = RecordingTransport(replies: [
            .json(200, #"{"access_token":"at-x","token_type":"Bearer","refresh_token":"rt-x","id_token":"\#(asAda)"}"#)
        ])
        let session = try await accounts.session(for: bob, transport: transport, clock: .fixed(Fixtures.epoch))
        let error = await #expect(throws: BearerError.self) { try await session.validAccessToken() }
        #expect(error?.signInRequired == true)
        let listed = try await accounts.accounts()
        #expect(listed.map(\.key) == [ada.key, bob.key])
        #expect(listed.last?.user?.subject == "bob" && listed.last?.signInRequired == true)
        #expect(try await store.load(key: ada.key) == adaBefore, "the other account is untouched")
    }

    @Test("remove revokes and removes that account only; the default falls back to the first")
    func removeOne() async throws {
        let store = InMemorySessionStore()
        let accounts = AccountList(store: store, key: "main")
        try await accounts.add(Self.state(subject: "ada", email: "ada@example.com", token: "ada"))
        let bob = try await accounts.add(Self.state(subject: "bob", email: "bob@example.com", token: "bob"))
        try await accounts.makeDefault(bob, clock: .fixed(Fixtures.epoch))
        let transport = RecordingTransport(replies: [.json(200, "{}"), .json(200, "{}")])
        let outcome = try await accounts.disconnect(bob, transport: transport, clock: .fixed(Fixtures.epoch))
        #expect(outcome == .revoked)
        let revoked = await transport.requests.map { $0.formBody["token"] }
        #expect(revoked.contains("rt-bob") && !revoked.contains("rt-ada"))
        #expect(try await store.load(key: bob.key) == nil)
        #expect(try await accounts.accounts().map(\.key) == ["main"])
        #expect(try await accounts.defaultAccount()?.key == "main")
        #expect(try await accounts.disconnect(bob, transport: transport) == .notRevoked, "already gone")
        let gone = await #expect(throws: BearerError.self) {
            try await accounts.makeDefault(bob)
        }
        #expect(gone?.kind == .unknownAccount)
    }

    @Test("account(named:) finds by key, e-mail in any case, subject or name; none or several is unknownAccount")
    func findingByName() async throws {
        let accounts = AccountList(store: InMemorySessionStore(), key: "main")
        try await accounts.add(Self.state(subject: "ada", email: "ada@example.com", name: "Ada"))
        let bob = try await accounts.add(Self.state(subject: "bob", email: "bob@example.com", name: "Ada"))
        #expect(try await accounts.account(named: "BOB@Example.com").key == bob.key)
        #expect(try await accounts.account(named: "ada").key == "main")
        #expect(try await accounts.account(named: bob.key).key == bob.key)
        for name in ["Ada", "carol@example.com"] {
            do {
                _ = try await accounts.account(named: name)
                Issue.record("\(name) matched one account")
            } catch let error as BearerError {
                #expect(error.kind == .unknownAccount)
                #expect(error.reason.contains("ada@example.com") && error.reason.contains("bob@example.com"))
                #expect(!error.reason.contains("rt-"), "no token in a message")
            }
        }
    }

    @Test("A session naming no user is refused beside named accounts, and replaces an unnamed one")
    func unnamedSessions() async throws {
        let store = InMemorySessionStore()
        let accounts = AccountList(store: store, key: "main")
        try await accounts.add(Self.state(subject: nil, token: "first"))
        try await accounts.add(Self.state(subject: nil, token: "second"))
        #expect(try await accounts.accounts().count == 1)
        #expect(try await store.load(key: "main")?.accessToken?.value == "at-second")
        let named = try await accounts.add(Self.state(subject: "ada", email: "ada@example.com"))
        #expect(named.key != "main", "an unnamed session is not taken to be anyone's")

        let namedOnly = AccountList(store: store, key: "other")
        try await namedOnly.add(Self.state(subject: "ada", email: "ada@example.com", token: "ada"))
        let before = try await store.keys()
        let refused = await #expect(throws: BearerError.self) {
            try await namedOnly.add(Self.state(subject: nil, token: "third"))
        }
        #expect(refused?.kind == .unknownAccount)
        #expect(try await store.keys() == before)
        #expect(try await store.load(key: "other")?.accessToken?.value == "at-ada")
    }

    @Test("A browser sign-in whose user is unknown beside other accounts is revoked, and nothing saved changes")
    func unnamedSignInIsRevoked() async throws {
        let store = InMemorySessionStore()
        let accounts = AccountList(store: store, key: "main")
        try await accounts.add(Self.state(subject: "ada", email: "ada@example.com", token: "ada"))
        let transport = RecordingTransport(replies: [
            .json(200, #"{"access_token":"at-new","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-new"}"#),
            .json(200, "{}"), .json(200, "{}"),
        ])
        do {
            _ = try await accounts.signIn(
                to: Fixtures.server, as: Fixtures.publicClient, scopes: ["email"], using: ScriptedAgent.approving(),
                transport: transport, clock: .fixed(Fixtures.epoch))
            Issue.record("an unnamed sign-in was saved beside a named account")
        } catch let error as BearerError {
            #expect(error.kind == .unknownAccount)
        }
        let revoked = await transport.requests.compactMap { $0.formBody["token"] }
        #expect(revoked.contains("rt-new"))
        #expect(try await store.keys() == ["main"])
    }

    @Test("A browser sign-in's session, named by the app, added with makingDefault becomes the default")
    func signInAddsAccount() async throws {
        let store = InMemorySessionStore()
        let accounts = AccountList(store: store, key: "main")
        try await accounts.add(Self.state(subject: "ada", email: "ada@example.com", token: "ada"))
        let transport = RecordingTransport(replies: [
            .json(200, #"{"access_token":"at-bob","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-bob"}"#)
        ])
        // A user named by the app itself (no ID token): the state comes back named.
        var configuration = AuthSession.Configuration.recommended(for: Fixtures.server)
        configuration.allowedHosts = ["auth.example.com"]
        let agent = ScriptedAgent.approving()
        let state = try await AuthSession.signedInState(
            to: Fixtures.server, as: Fixtures.publicClient, scopes: ["email"], using: agent,
            additionalParameters: [:], tokenParameters: [:], transport: transport, clock: .fixed(Fixtures.epoch),
            configuration: configuration, resource: nil)
        var named = state
        named.user = AuthState.User(subject: "bob", email: "bob@example.com")
        let bob = try await accounts.add(named, makingDefault: true, clock: .fixed(Fixtures.epoch))
        #expect(try await accounts.defaultAccount()?.key == bob.key)
        #expect(try await store.load(key: "main")?.accessToken?.value == "at-ada")
    }

    @Test("Only the list's own keys are its accounts: not a longer key, another list's, or a registration")
    func listsOnlyItsKeys() async throws {
        let store = InMemorySessionStore()
        let state = Self.state(subject: "ada", email: "ada@example.com")
        for key in ["main2", "main+abc", "main+0123456789ABCDEF", "other", "main+0123456789abcdef+0123456789abcdef"] {
            try await store.save(state, key: key)
        }
        try await store.save(state, key: "main+0123456789abcdef")
        let accounts = AccountList(store: store, key: "main")
        #expect(try await accounts.accounts().map(\.key) == ["main+0123456789abcdef"])
        #expect(try await accounts.defaultAccount()?.key == "main+0123456789abcdef", "the first, when none is chosen")
    }

    @Test("An unreadable item is listed with its problem, never the default, and left in place")
    func unreadableItem() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FileSessionStore(directory: folder)
        let accounts = AccountList(store: store, key: "main")
        try await accounts.add(Self.state(subject: "ada", email: "ada@example.com"))
        let broken = try store.fileURL(for: "main+00000000000000ff")
        try Data("not a session".utf8).write(to: broken)
        _ = chmod(broken.path, 0o600)
        let listed = try await accounts.accounts()
        #expect(listed.count == 2)
        let problem = try #require(listed.first { $0.key == "main+00000000000000ff" })
        #expect(problem.problem != nil && problem.signInRequired)
        #expect(listed.allSatisfy { !$0.isDefault }, "the unreadable one may be the default: none is marked")
        // No other account is taken for a default that may be the unreadable one.
        let error = await #expect(throws: BearerError.self) { try await accounts.defaultAccount() }
        #expect(error?.kind == .unknownAccount)
        #expect(throws: BearerError.self) { try store.accountWithoutSuspending(key: "main", named: nil) }
        // Named, the readable one is still used.
        #expect(try store.accountWithoutSuspending(key: "main", named: "ada@example.com").state?.user?.subject == "ada")
        #expect(FileManager.default.fileExists(atPath: broken.path))
        let withoutSuspending = try store.accountsWithoutSuspending(key: "main")
        #expect(withoutSuspending.map(\.key) == listed.map(\.key))
        #expect(withoutSuspending.map(\.isDefault) == listed.map(\.isDefault))
    }

    @Test("A picker row kept after its key went to another user gives no token and revokes nothing")
    func staleRow() async throws {
        let store = InMemorySessionStore()
        let accounts = AccountList(store: store, key: "main")
        let ada = try await accounts.add(Self.state(subject: "ada", email: "ada@example.com", token: "ada"))
        try await store.remove(key: ada.key)
        try await accounts.add(Self.state(subject: "bob", email: "bob@example.com", token: "bob"))
        let transport = RecordingTransport(replies: [.json(200, "{}")])
        let session = await #expect(throws: BearerError.self) {
            try await accounts.session(for: ada, transport: transport, clock: .fixed(Fixtures.epoch))
        }
        #expect(session?.kind == .unknownAccount)
        let disconnect = await #expect(throws: BearerError.self) {
            try await accounts.disconnect(ada, transport: transport, clock: .fixed(Fixtures.epoch))
        }
        #expect(disconnect?.kind == .unknownAccount)
        #expect(await transport.requests.isEmpty, "bob's grant is not revoked")
        #expect(try await store.load(key: "main")?.accessToken?.value == "at-bob")
    }

    @Test("A picker's name is the user's name, else e-mail, else subject, else the key")
    func displayNames() async throws {
        let accounts = AccountList(store: InMemorySessionStore(), key: "main")
        try await accounts.add(Self.state(subject: "s-1", email: "one@example.com", name: "One"))
        try await accounts.add(Self.state(subject: "s-2", email: "two@example.com"))
        try await accounts.add(Self.state(subject: "s-3"))
        #expect(Set(try await accounts.accounts().map(\.displayName)) == ["One", "two@example.com", "s-3"])
        #expect(try await accounts.accounts().allSatisfy { $0.id == $0.key })
    }
}
