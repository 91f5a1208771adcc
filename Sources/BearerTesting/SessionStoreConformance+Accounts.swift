import Bearer
import Foundation

// The account checks of ``SessionStoreConformance``: what an ``AccountList`` relies on.
extension SessionStoreConformance {
    /// `keys(startingWith:)` gives exactly the keys with the prefix, sorted (an `_` in it taken as
    /// itself, not as a pattern), and an ``AccountList`` over the store keeps two users apart and
    /// finds each one's account again.
    static func accountsAreListed(_ store: Store, prefix: String) async throws -> String? {
        var saved: [String] = []
        let outcome: Result<String?, any Error>
        do {
            outcome = .success(try await accountsAreListedOnce(store, prefix: prefix, saving: &saved))
        } catch {
            outcome = .failure(error)
        }
        for key in saved { try? await store.remove(key: key) }
        return try outcome.get()
    }

    private static func accountsAreListedOnce(_ store: Store, prefix: String, saving saved: inout [String])
        async throws -> String?
    {
        let listKey = prefix + "list_1"
        let others = [listKey, listKey + "-other", prefix + "listX1", prefix + "list-1"]
        for (index, key) in others.enumerated() {
            try await store.save(try session("\(index)"), key: key)
            saved.append(key)
        }
        let listed = try await store.keys(startingWith: listKey)
        guard listed == [listKey, listKey + "-other"] else {
            return "keys(startingWith:) gave \(listed), not the two keys that start with \(listKey)"
        }
        let accounts = AccountList(store: store, key: prefix + "accounts")
        var added: [String] = []
        for subject in ["first", "second"] {
            var state = try session(subject)
            state.user = AuthState.User(subject: subject, email: subject + "@conformance.invalid")
            let key = try await accounts.add(state).key
            added.append(key)
            saved.append(key)
        }
        let found = try await accounts.accounts()
        guard found.map(\.key) == added, found.map({ $0.user?.subject }) == ["first", "second"] else {
            return "an AccountList over the store listed \(found.map(\.key)), not the two accounts added \(added)"
        }
        guard try await accounts.account(named: "second@conformance.invalid").key == added.last else {
            return "an AccountList over the store did not find the second account by its e-mail"
        }
        return nil
    }
}
