import Bearer
import Foundation
import Testing

@_spi(Migration) @testable import BearerCore
@testable import BearerPostgres

extension SharedPostgresServer {
    /// Account lists in the fleet store: one app user's accounts found through the prefix index.
    @Suite(
        "PostgresSessionStore: account lists",
        .enabled(if: PostgresTestServer.isInstalled, PostgresTestServer.skipReason))
    struct PostgresAccountListTests {
        static func state(_ subject: String, refresh: String) -> AuthState {
            var state = StoreFixtures.state(refresh: refresh)
            state.user = AuthState.User(subject: subject, email: "\(subject)@example.com")
            return state
        }

        @Test("Each app user's accounts are listed apart, across instances, with LIKE's characters taken literally")
        func listsPerUser() async throws {
            let table = StoreFixtures.uniqueTable()
            let first = try await StoreFixtures.store(table: table)
            let second = try await StoreFixtures.store(table: table)
            defer {
                Task {
                    await first.close()
                    await second.close()
                }
            }
            let alice = AccountList(store: first, key: "user_1")
            try await alice.add(Self.state("work", refresh: "rt-work"))
            let home = try await alice.add(Self.state("home", refresh: "rt-home"))
            // Keys a careless LIKE 'user_1%' would match: `_` is any character there.
            try await first.save(Self.state("other", refresh: "rt-x"), key: "userX1")
            try await first.save(Self.state("other", refresh: "rt-y"), key: "user_10")
            #expect(try await second.keys(startingWith: "user_1") == ["user_1", home.key, "user_10"])
            #expect(try await second.keys(startingWith: "user%") == [])
            let seen = AccountList(store: second, key: "user_1")
            #expect(try await seen.accounts().map { $0.user?.subject } == ["work", "home"])
            try await seen.makeDefault(try await seen.account(named: "home@example.com"))
            #expect(
                try await alice.defaultAccount()?.key == home.key, "a choice made at one instance is every instance's")
        }

        @Test("The prefix lookup can use the key-prefix index rather than read the table")
        func usesTheIndex() async throws {
            let table = StoreFixtures.uniqueTable()
            let store = try await StoreFixtures.store(table: table)
            defer { Task { await store.close() } }
            let raw = try RawSQL(try PostgresTestServer.running.connectionString)
            try raw.query("SET enable_seqscan = off")
            // The store's own statement, with its parameter, planned for the value bound.
            let statement = StoreStatements(table: try TableName(table)).keysWithPrefix
            let pattern = StoreStatements.likePattern(startingWith: "user_1").replacingOccurrences(of: "'", with: "''")
            try raw.query("PREPARE prefix_lookup(text) AS \(statement)")
            let plan = try raw.query("EXPLAIN EXECUTE prefix_lookup('\(pattern)')").compactMap { $0 }
                .joined(separator: "\n")
            #expect(plan.contains("\(table)_by_key_prefix"), "\(plan)")
            #expect(!plan.contains("Seq Scan"))
        }
    }
}
