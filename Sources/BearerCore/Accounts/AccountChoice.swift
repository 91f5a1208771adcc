#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How an ``AccountList`` records its default: each account chosen with
/// ``AccountList/makeDefault(_:clock:)`` carries, in its session's metadata, a rank that is the
/// time of the choice in milliseconds (or one more than any rank before it, when the clock went
/// back). The highest rank is the default; with none, the account under the list's own key is,
/// else the one with the lowest key.
///
/// The choice lives in the chosen account's own item, written under its own lock, so choosing
/// touches no other account and no shared record, and works in every store.
enum AccountChoice {
    /// The metadata key of the rank.
    static let metadataKey = "bearer-default-account-rank"

    /// The rank recorded in `state`, if any.
    static func rank(of state: AuthState) -> Int64? {
        state.metadata[metadataKey].flatMap { Int64($0) }
    }

    /// `state` with `rank` recorded.
    static func ranked(_ state: AuthState, _ rank: Int64?) -> AuthState {
        var ranked = state
        ranked.metadata[metadataKey] = rank.map { String($0) }
        return ranked
    }

    /// The rank of a choice made at `now` after the ranks `existing`.
    static func nextRank(at now: Date, after existing: [Int64]) -> Int64 {
        let milliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        return max(milliseconds, (existing.max() ?? 0) + 1)
    }

    /// The key of the default among `accounts` (readable ones only), as the type's comment says.
    static func defaultKey(among accounts: [(key: String, state: AuthState)], listKey: String) -> String? {
        let ranked = accounts.compactMap { account in rank(of: account.state).map { (account.key, $0) } }
        if let chosen = ranked.max(by: { ($0.1, $1.0) < ($1.1, $0.0) }) { return chosen.0 }
        if accounts.contains(where: { $0.key == listKey }) { return listKey }
        return accounts.first?.key
    }
}

extension AuthState {
    /// This session without the default choice an ``AccountList`` records in it: what a saved
    /// account is compared by against the session it was made from, as an import checks it.
    @_spi(Migration) public var withoutAccountChoice: AuthState {
        AccountChoice.ranked(self, nil)
    }
}
