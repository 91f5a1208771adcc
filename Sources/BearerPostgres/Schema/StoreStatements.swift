/// The store's SQL for its table, written once when the store is made.
struct StoreStatements: Sendable {
    /// Reads row `$1`'s state, sealed flag, and whether the provider ended it.
    let load: String
    /// Removes row `$1`.
    let delete: String
    /// Lists the keys, sorted by their bytes.
    let keys: String
    /// The lock's and the lease's.
    let lock: LockStatements

    init(table: TableName) {
        let name = table.sql
        load = "SELECT state, sealed, ended_at IS NOT NULL FROM \(name) WHERE key = $1::text"
        delete = "DELETE FROM \(name) WHERE key = $1::text"
        keys = "SELECT key FROM \(name) ORDER BY key COLLATE \"C\""
        lock = LockStatements(table: table)
    }
}
