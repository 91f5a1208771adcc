import Bearer
import Foundation
import Testing

@_spi(Testing) @testable import BearerCore

extension DPoPEndToEndTests {
    /// An app's account list at glewlwyd (a real OpenID provider with DPoP-bound tokens): alice and
    /// bob signed in beside each other in a file store, each account's token the provider's for
    /// that user, the same user again updating its account, and one removed while the other keeps
    /// working.
    @Suite("several accounts at glewlwyd")
    struct Accounts {
        static let port: UInt16 = 18175

        /// Signs `user` in through the headless browser into `accounts`.
        func signIn(_ user: String, into accounts: AccountList) async throws -> AuthSession {
            let agent = try LoopbackAgent(
                port: Self.port, timeout: .seconds(120), opener: .command("\(try Browser.command) --user \(user)"))
            return try await accounts.signIn(
                to: try await Glewlwyd.discover(), as: try Glewlwyd.client(Glewlwyd.optionalClient, port: Self.port),
                scopes: ["openid", "email"], using: agent, transport: ObservingTransport(),
                configuration: DPoPEndToEndTests.configuration())
        }

        /// The e-mail glewlwyd's UserInfo endpoint answers with `session`'s token.
        func userInfoEmail(_ session: AuthSession) async throws -> String? {
            let url = try #require(await session.state.server.userinfoEndpoint)
            let (body, response) = try await session.data(for: URLRequest(url: url))
            try #require(response.statusCode == 200)
            return (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["email"] as? String
        }

        @Test("alice and bob side by side; each token is its user's; the same user updates; one removed")
        func twoUsers() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-accounts-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let accounts = AccountList(store: FileSessionStore(directory: folder), key: "glewlwyd")
            _ = try await signIn("alice", into: accounts)
            _ = try await signIn("bob", into: accounts)
            let listed = try await accounts.accounts()
            #expect(Set(listed.compactMap { $0.user?.email }) == ["alice@example.com", "bob@example.com"])
            #expect(try await accounts.defaultAccount()?.user?.email == "alice@example.com", "the first stays default")

            let alice = try await accounts.account(named: "alice@example.com")
            let bob = try await accounts.account(named: "bob@example.com")
            async let aliceEmail = userInfoEmail(
                try await accounts.session(
                    for: alice, transport: ObservingTransport(), configuration: DPoPEndToEndTests.configuration()))
            async let bobEmail = userInfoEmail(
                try await accounts.session(
                    for: bob, transport: ObservingTransport(), configuration: DPoPEndToEndTests.configuration()))
            #expect(try await [aliceEmail, bobEmail] == ["alice@example.com", "bob@example.com"])

            let aliceBefore = try await accounts.store.load(key: alice.key)
            _ = try await signIn("alice", into: accounts)
            #expect(try await accounts.accounts().count == 2, "alice's account was updated, not duplicated")
            #expect(try await accounts.store.load(key: alice.key)?.refreshToken != aliceBefore?.refreshToken)

            _ = try await accounts.disconnect(
                bob, transport: ObservingTransport(), configuration: DPoPEndToEndTests.configuration())
            #expect(try await accounts.accounts().map(\.key) == [alice.key])
            let remaining = try await accounts.session(
                for: alice, transport: ObservingTransport(), configuration: DPoPEndToEndTests.configuration())
            #expect(try await userInfoEmail(remaining) == "alice@example.com")
        }
    }
}
