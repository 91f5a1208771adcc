/// The store's SQL for its table, written once when the store is made.
struct StoreStatements: Sendable {
    /// Reads row `$1`'s state, sealed flag, and whether the provider ended it.
    let load: String
    /// Removes row `$1`.
    let delete: String
    /// Lists the keys, sorted by their bytes.
    let keys: String
    /// Lists the keys that match the `LIKE` pattern `$1` (a prefix and `%`), sorted by their
    /// bytes, through the index on the keys' prefixes.
    let keysWithPrefix: String
    /// The lock's and the lease's.
    let lock: LockStatements

    init(table: TableName) {
        let name = table.sql
        load = "SELECT state, sealed, ended_at IS NOT NULL FROM \(name) WHERE key = $1::text"
        delete = "DELETE FROM \(name) WHERE key = $1::text"
        keys = "SELECT key FROM \(name) ORDER BY key COLLATE \"C\""
        keysWithPrefix = "SELECT key FROM \(name) WHERE key LIKE $1::text ORDER BY key COLLATE \"C\""
        lock = LockStatements(table: table)
    }

    /// The `LIKE` pattern of the keys starting with `prefix`: its `%`, `_` and `\\` escaped
    /// (the default escape character), then `%`.
    static func likePattern(startingWith prefix: String) -> String {
        var pattern = ""
        for character in prefix {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern + "%"
    }
}
