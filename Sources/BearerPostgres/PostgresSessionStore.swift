@_spi(Fleet) public import BearerCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A ``SessionStore`` in a PostgreSQL table, shared by every process and machine of a server
/// fleet, so that each grant is refreshed once however many instances ask at once.
///
/// ```swift
/// let store = try PostgresSessionStore(connectionString: "host=db.internal dbname=app sslmode=verify-full")
/// try await store.prepareSchema()
/// let session = try await AuthSession.restore(key: userID, from: store)
/// ```
///
/// - ``withExclusiveAccess(to:_:)`` holds a PostgreSQL advisory lock of the key on one connection
///   for the whole body, and the body's loads, saves and removals through its ``Access`` run on
///   that same connection. Each save is committed before it returns, so a token is
///   never used before its session is stored. When the process dies, PostgreSQL ends its
///   connection and with it the lock: no stale lock is left behind.
/// - Waiting for a lock, or for a free connection of the pool, lasts at most ``lockTimeout``
///   (PostgreSQL's `lock_timeout`); a wait that runs out is a transient
///   ``PostgresSessionStoreError/Kind/lockTimeout`` or ``PostgresSessionStoreError/Kind/poolTimeout``.
/// - Every libpq call runs on a thread of the store's own, one per connection, never on Swift's
///   cooperative pool. Broken connections are replaced; a connection that broke while idle is
///   replaced and the call made once more, except while it holds a lock.
/// - Database failures are ``PostgresSessionStoreError``s, which say whether to retry; a stored
///   session that cannot be decoded is a `BearerError` (`unreadableSession`), and the row is left as it is.
/// - Without a ``Sealing`` hook the table holds live refresh tokens in the clear: protect the
///   database like a password store, and connect with `sslmode=verify-full`.
public struct PostgresSessionStore: SessionStore {
    /// The schema version this release writes and reads.
    public static let schemaVersion = 2

    /// The table holding the sessions, as the app spelled it.
    public let table: String
    /// How long a call waits for a session's lock or for a free connection, in total; also how
    /// long the lease of a holder whose connection broke lasts, and how long one statement may take.
    public let lockTimeout: Duration

    let sealing: Sealing?
    let pool: ConnectionPool
    let tableName: TableName
    let statements: StoreStatements
    /// The store's turns for each key, taken before a connection (shared by copies of the store).
    let turns: AsyncKeyedLock
    /// The owner this store writes into the leases it takes: one per store, so that a store whose
    /// save failed takes its own lease over on its next call (its tasks take turns in ``turns``).
    let owner: String
    /// Whether this copy opens a connection beyond the pool's size when none is free: the copy a
    /// lock's holder reaches other keys through (`Access.storeForOtherKeys`).
    private(set) var opensBeyondPool = false

    /// Creates a store; no connection is opened until the first call.
    ///
    /// - Parameters:
    ///   - connectionString: A libpq connection string (`host=… dbname=… user=…` or
    ///     `postgresql://…`); libpq's environment variables (`PGHOST`, `PGPASSWORD`, …) and
    ///     password file apply too. Unless the string or `PGSSLMODE` names an `sslmode`, a host
    ///     reached over TCP must present a certificate that verifies for its name
    ///     (`sslmode=verify-full`, with libpq's root certificates: `sslrootcert`); Unix sockets
    ///     use none. TCP keepalives and a limit on unacknowledged data (`tcp_user_timeout`) of
    ///     the lock timeout are set unless the string sets them.
    ///   - table: The table's name, optionally schema-qualified: lower-case letters, digits and
    ///     `_` (`auth.bearer_sessions`), or double-quoted (`"Auth"."Sessions"`); reserved words are
    ///     fine. Every spelling of one table shares its locks.
    ///   - poolSize: How many connections the store opens at most (4 by default), besides one for
    ///     each lock's holder that reaches another key at once (a derived session's parent),
    ///     closed when it is given back.
    ///   - lockTimeout: How long a call waits for a session's lock or for a free connection, in
    ///     total (10 s by default). A token request under the lock is given up when the holder's
    ///     lease, renewed every quarter of this, could not be renewed for this long.
    ///   - sealing: The app's encryption of stored sessions, or `nil` to store them unsealed.
    /// - Throws: ``PostgresSessionStoreError/Kind/invalidConfiguration`` for a malformed setting.
    public init(
        connectionString: String,
        table: String = "bearer_sessions",
        poolSize: Int = 4,
        lockTimeout: Duration = .seconds(10),
        sealing: Sealing? = nil
    ) throws {
        let tableName = try TableName(table)
        guard (1...64).contains(poolSize) else {
            throw PostgresSessionStoreError.invalidConfiguration("The pool size must be between 1 and 64.")
        }
        let settings = try ConnectionSettings(connectionString: connectionString, lockTimeout: lockTimeout)
        let pool = ConnectionPool(settings: settings, size: poolSize, waitTimeout: lockTimeout)
        self.table = table
        self.lockTimeout = lockTimeout
        self.sealing = sealing
        self.pool = pool
        self.tableName = tableName
        self.statements = StoreStatements(table: tableName)
        self.turns = AsyncKeyedLock()
        self.owner = UUID().uuidString
    }

    /// This store, sharing its pool and leases, but opening a connection beyond the pool's size
    /// rather than waiting when none is free (each such connection is closed when it is given
    /// back), and taking no turn for a key before its lock.
    func openingBeyondPool() -> PostgresSessionStore {
        var store = self
        store.opensBeyondPool = true
        return store
    }

    /// Reads the session saved under `key`.
    ///
    /// - Throws: ``PostgresSessionStoreError``, or `BearerError` when the row cannot be decoded;
    ///   `CancellationError` when the task is cancelled while it waits.
    public func load(key: String) async throws -> AuthState? {
        let select = statements.load
        let row = try await run(stoppingOnCancellation: true) { connection in
            try connection.execute(select, [.text(key)]).first
        }
        return try await decode(row, key: key)
    }

    /// The session in a row of ``StoreStatements/load``; `nil` when there is none.
    /// A row whose `ended_at` is set (the provider ended the session) reads as needing a new sign-in.
    func decode(_ row: [Data?]?, key: String) async throws -> AuthState? {
        guard let row, row.count == 3, let bytes = row[0], let flag = row[1] else { return nil }
        let plaintext = try await opened(bytes, isSealed: flag.first == 1, key: key)
        let state = try AuthState(encoded: plaintext)
        return isEnded(row) ? state.endedAtProvider() : state
    }

    /// Whether a row of ``StoreStatements/load`` was ended by the provider.
    func isEnded(_ row: [Data?]?) -> Bool {
        guard let row, row.count == 3 else { return false }
        return row[2]?.first == 1
    }

    /// The keys of the saved sessions, sorted by their UTF-8 bytes.
    ///
    /// - Throws: ``PostgresSessionStoreError``.
    public func keys() async throws -> [String] {
        let select = statements.keys
        let rows = try await run(stoppingOnCancellation: true) { connection in
            try connection.execute(select)
        }
        return rows.compactMap { $0.first.flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// The keys that start with `prefix`, sorted by their UTF-8 bytes, found through the index
    /// on the keys' prefixes (schema version 2's `_by_key_prefix`), not by reading every key: an
    /// ``AccountList`` lists one user's accounts with it.
    ///
    /// - Throws: ``PostgresSessionStoreError``.
    public func keys(startingWith prefix: String) async throws -> [String] {
        let select = statements.keysWithPrefix
        let pattern = StoreStatements.likePattern(startingWith: prefix)
        let rows = try await run(stoppingOnCancellation: true) { connection in
            try connection.execute(select, [.text(pattern)])
        }
        return rows.compactMap { $0.first.flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Runs `body` while holding the PostgreSQL advisory lock of `key`, which every process
    /// sharing the database respects. The body's loads, saves and removals go through `access`,
    /// on the lock's connection and under its lease.
    ///
    /// - Throws: What `body` throws; ``PostgresSessionStoreError/Kind/lockTimeout`` when another
    ///   task or process held the lock for longer than ``lockTimeout`` (nothing ran);
    ///   `CancellationError` when the task was cancelled before the lock was taken (nothing ran).
    public func withExclusiveAccess<Result: Sendable>(
        to key: String,
        _ body: @Sendable (_ access: Access) async throws -> Result
    ) async throws -> Result {
        let deadline = ContinuousClock.now + lockTimeout
        // A lock's holder reaching another key takes no turn: a task of this store may hold that
        // key's turn while it waits for the connection the holder has, and the holder would wait
        // behind it. It waits in PostgreSQL's queue alone, which excludes it just as well.
        if opensBeyondPool { return try await holdingLock(key, until: deadline, body) }
        return try await turns.withLock(key, until: deadline, timeout: lockTimeoutError) {
            try await holdingLock(key, until: deadline, body)
        }
    }

    /// Takes the lock of `key` and its lease, runs `body` while renewing the lease, and gives
    /// both back.
    private func holdingLock<Result: Sendable>(
        _ key: String, until deadline: ContinuousClock.Instant,
        _ body: @Sendable (_ access: Access) async throws -> Result
    ) async throws -> Result {
        let held = try await acquire(key, until: deadline)
        let renewal = Task { await renewLease(held) }
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await body(Access(store: self, held: held)))
        } catch {
            outcome = .failure(error)
        }
        renewal.cancel()
        await renewal.value
        await release(held)
        return try outcome.get()
    }

    /// Closes the store's connections (those in use once they are returned); later calls fail
    /// with ``PostgresSessionStoreError/Kind/closed``.
    public func close() async {
        await pool.close()
    }

    /// Runs `work` on a connection of the pool, reconnecting one that broke while idle.
    @discardableResult
    func run<Value: Sendable>(
        stoppingOnCancellation: Bool = false,
        _ work: @escaping @Sendable (PostgresConnection) throws -> Value
    ) async throws -> Value {
        let connection = try await pool.checkOut(beyondSize: opensBeyondPool)
        do {
            let value = try await connection.run(.reconnecting, stoppingOnCancellation: stoppingOnCancellation, work)
            pool.checkIn(connection)
            return value
        } catch {
            pool.checkIn(connection)
            throw error
        }
    }
}
