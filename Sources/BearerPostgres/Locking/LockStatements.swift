/// The SQL of a key's lock and lease, written once per store for its table.
///
/// The advisory lock's key is one 64-bit hash of the table's identity (its `oid`, whatever the
/// spelling or `search_path` that named it) and the session's key, so two spellings of one table
/// share their locks, and two keys of a million collide with a chance of about 1 in 10^7.
///
/// Waiting for the lock queues in PostgreSQL, first come first served across every instance;
/// within one store, tasks take turns before that (``AsyncKeyedLock``), so one connection waits per key.
///
/// The lease (`lease_owner`, `lease_taken_at`, `lease_until`) is what keeps other instances out
/// when the lock's connection broke while its holder lives on (see
/// `PostgresSessionStore+Lease.swift`). A lease is live until `lease_until`; and when the server
/// started after the lease was last renewed, for as long again from that start. Crash recovery
/// (a backend killed, every connection reset) counts as a start: it resets the server's fixed
/// statistics, whose reset time is then the recovery's.
struct LockStatements: Sendable {
    /// Waits for the lock of table `$1`'s key `$2` for at most `$3` milliseconds (the connection's
    /// `lock_timeout`, set first in the same statement), in PostgreSQL's own queue of waiters.
    let lock: String
    /// Holding the lock, takes row `$1`'s lease for owner `$2` for the interval `$3` unless another
    /// owner's lease is live, checking and taking it in one statement, and puts the connection's
    /// `lock_timeout` back to `$4` milliseconds. Answers whether it took the lease, and whether
    /// the row exists.
    let takeLease: String
    /// Puts the connection's `lock_timeout` back to `$1` milliseconds.
    let resetLockTimeout = "SELECT set_config('lock_timeout', $1::text, false)"
    /// Gives back the lock of table `$1`'s key `$2`.
    let unlock: String
    /// Renews owner `$2`'s lease of row `$1` for the interval `$3`; answers a row when it did.
    let renew: String
    /// Clears owner `$2`'s lease of row `$1`.
    let clear: String
    /// Saves state `$2`, sealed `$3`, with its ``SessionColumns`` `$5`…`$8`, into row `$1` while
    /// owner `$4`'s lease of it is live, clearing `ended_at` when `$9` or when the session is of
    /// another provider session than the row's (a new sign-in); answers a row when it did.
    let saveUnderLease: String
    /// Writes row `$1` with state `$2`, sealed `$3`, owner `$4`'s lease for the interval `$5`, and
    /// its ``SessionColumns`` `$6`…`$9`, clearing `ended_at` when `$10` or when the session is of
    /// another provider session than the row's (a new sign-in): the save of a lock's holder,
    /// which leases a row it creates.
    let saveHoldingLock: String
    /// Inserts row `$1` with state `$2`, sealed `$3` and its ``SessionColumns`` `$4`…`$7`, unless another row is there (a row with the
    /// same state counts as this save, made by an attempt whose answer was lost); answers a row
    /// when it is saved.
    let insertUnlessPresent: String
    /// Removes row `$1` while owner `$2`'s lease of it is live; answers whether it removed it,
    /// and whether the row is still there.
    let removeUnderLease: String

    init(table: TableName) {
        let name = table.sql
        let lockKey = "hashtextextended(($1::text::regclass)::oid::text || '/' || $2::text, 0)"
        let live = Self.leaseIsLive
        lock = """
            SELECT pg_advisory_lock(\(lockKey)) FROM (SELECT set_config('lock_timeout', $3::text, false)) AS waiting
            """
        takeLease = """
            WITH taken AS (
                UPDATE \(name) SET lease_owner = $2::text, lease_taken_at = clock_timestamp(),
                    lease_until = clock_timestamp() + $3::text::interval
                WHERE key = $1::text AND (lease_owner IS NULL OR lease_owner = $2::text OR NOT \(live))
                RETURNING 1)
            SELECT EXISTS (SELECT 1 FROM taken), EXISTS (SELECT 1 FROM \(name) WHERE key = $1::text),
                set_config('lock_timeout', $4::text, false)
            """
        unlock = "SELECT pg_advisory_unlock(\(lockKey))"
        renew = """
            UPDATE \(name) SET lease_taken_at = clock_timestamp(), lease_until = clock_timestamp() + $3::text::interval
            WHERE key = $1::text AND lease_owner = $2::text RETURNING 1
            """
        clear = """
            UPDATE \(name) SET lease_owner = NULL, lease_taken_at = NULL, lease_until = NULL
            WHERE key = $1::text AND lease_owner = $2::text
            """
        saveUnderLease = """
            UPDATE \(name) SET state = $2::bytea, sealed = $3::boolean, updated_at = now(),
                \(Self.columnsFrom(5)),
                ended_at = CASE WHEN $9::boolean OR provider_session IS DISTINCT FROM nullif($8::text, '') THEN NULL
                    ELSE ended_at END
            WHERE key = $1::text AND lease_owner = $4::text AND \(live) RETURNING 1
            """
        saveHoldingLock = """
            INSERT INTO \(name) AS row (key, state, sealed, updated_at, lease_owner, lease_taken_at, lease_until,
                issuer, client_id, subject, provider_session)
            VALUES ($1::text, $2::bytea, $3::boolean, now(), $4::text, clock_timestamp(),
                clock_timestamp() + $5::text::interval, \(Self.columnValues(6)))
            ON CONFLICT (key) DO UPDATE SET state = EXCLUDED.state, sealed = EXCLUDED.sealed, updated_at = now(),
                lease_owner = EXCLUDED.lease_owner, lease_taken_at = EXCLUDED.lease_taken_at,
                lease_until = EXCLUDED.lease_until, issuer = EXCLUDED.issuer, client_id = EXCLUDED.client_id,
                subject = EXCLUDED.subject, provider_session = EXCLUDED.provider_session,
                ended_at = CASE WHEN $10::boolean OR row.provider_session IS DISTINCT FROM EXCLUDED.provider_session
                    THEN NULL ELSE row.ended_at END
            """
        insertUnlessPresent = """
            INSERT INTO \(name) AS row (key, state, sealed, updated_at, issuer, client_id, subject, provider_session)
            VALUES ($1::text, $2::bytea, $3::boolean, now(), \(Self.columnValues(4)))
            ON CONFLICT (key) DO UPDATE SET updated_at = row.updated_at
            WHERE row.state = EXCLUDED.state AND row.sealed = EXCLUDED.sealed RETURNING 1
            """
        removeUnderLease = """
            WITH removed AS (DELETE FROM \(name) WHERE key = $1::text AND lease_owner = $2::text AND \(live) RETURNING 1)
            SELECT EXISTS (SELECT 1 FROM removed), EXISTS (SELECT 1 FROM \(name) WHERE key = $1::text)
            """
    }

    /// The ``SessionColumns`` from parameter `$first` on, as values to insert.
    static func columnValues(_ first: Int) -> String {
        (first..<first + 4).map { "nullif($\($0)::text, '')" }.joined(separator: ", ")
    }

    /// The ``SessionColumns`` from parameter `$first` on, as assignments.
    static func columnsFrom(_ first: Int) -> String {
        zip(["issuer", "client_id", "subject", "provider_session"], first..<first + 4)
            .map { "\($0) = nullif($\($1)::text, '')" }.joined(separator: ", ")
    }

    /// When the server last started, crash recovery included.
    static let serverStart = "GREATEST(pg_postmaster_start_time(), pg_stat_get_bgwriter_stat_reset_time())"

    /// The SQL condition under which a row's lease still holds.
    static let leaseIsLive = """
        (lease_until > clock_timestamp() OR (lease_taken_at < \(serverStart) \
        AND \(serverStart) + (lease_until - lease_taken_at) > clock_timestamp()))
        """
}
