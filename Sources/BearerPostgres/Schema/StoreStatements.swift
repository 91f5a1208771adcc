/// The store's SQL for its table, written once when the store is made.
struct StoreStatements: Sendable {
    /// Reads row `$1`'s state and sealed flag.
    let load: String
    /// Writes row `$1` with state `$2` and sealed flag `$3`, inserting it if it is new.
    let upsert: String
    /// Removes row `$1`.
    let delete: String
    /// Lists the keys, sorted by their bytes.
    let keys: String
    /// The lock's and the lease's.
    let lock: LockStatements

    init(table: TableName) {
        let name = table.sql
        load = "SELECT state, sealed FROM \(name) WHERE key = $1::text"
        upsert = """
            INSERT INTO \(name) (key, state, sealed, updated_at) VALUES ($1::text, $2::bytea, $3::boolean, now())
            ON CONFLICT (key) DO UPDATE SET state = EXCLUDED.state, sealed = EXCLUDED.sealed, updated_at = now()
            """
        delete = "DELETE FROM \(name) WHERE key = $1::text"
        keys = "SELECT key FROM \(name) ORDER BY key COLLATE \"C\""
        lock = LockStatements(table: table)
    }
}
