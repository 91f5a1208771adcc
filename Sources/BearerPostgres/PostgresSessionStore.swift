public import BearerCore

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
///   for the whole body, and the body's ``load(key:)``, ``save(_:key:)`` and ``remove(key:)`` of
///   that key run on that same connection. Each save is committed before it returns, so a token is
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
    public static let schemaVersion = 1

    /// The table holding the sessions.
    public let table: String
    /// How long a call waits for a session's lock or for a free connection.
    public let lockTimeout: Duration

    let sealing: Sealing?
    let pool: ConnectionPool
    private let poolID: ObjectIdentifier

    /// Creates a store; no connection is opened until the first call.
    ///
    /// - Parameters:
    ///   - connectionString: A libpq connection string (`host=… dbname=… user=…` or
    ///     `postgresql://…`); TLS is libpq's: `sslmode=verify-full` is recommended. libpq's
    ///     environment variables (`PGHOST`, `PGPASSWORD`, …) and password file apply too.
    ///   - table: The table's name, letters, digits and `_`, optionally schema-qualified
    ///     (`auth.bearer_sessions`).
    ///   - poolSize: How many connections the store opens at most (4 by default).
    ///   - lockTimeout: How long a call waits for a session's lock or for a free connection
    ///     (10 s by default); keep it longer than a token request takes.
    ///   - sealing: The app's encryption of stored sessions, or `nil` to store them unsealed.
    /// - Throws: ``PostgresSessionStoreError/Kind/invalidConfiguration`` for a malformed setting.
    public init(
        connectionString: String,
        table: String = "bearer_sessions",
        poolSize: Int = 4,
        lockTimeout: Duration = .seconds(10),
        sealing: Sealing? = nil
    ) throws {
        try Self.checkTableName(table)
        guard (1...64).contains(poolSize) else {
            throw PostgresSessionStoreError.invalidConfiguration("The pool size must be between 1 and 64.")
        }
        let settings = try ConnectionSettings(connectionString: connectionString, lockTimeout: lockTimeout)
        let pool = ConnectionPool(settings: settings, size: poolSize, waitTimeout: lockTimeout)
        self.table = table
        self.lockTimeout = lockTimeout
        self.sealing = sealing
        self.pool = pool
        self.poolID = ObjectIdentifier(pool)
    }

    /// Reads the session saved under `key`.
    ///
    /// - Throws: ``PostgresSessionStoreError``, or `BearerError` when the row cannot be decoded.
    public func load(key: String) async throws -> AuthState? {
        let table = self.table
        let row = try await run(for: key) { connection in
            try connection.execute("SELECT state, sealed FROM \(table) WHERE key = $1::text", [.text(key)]).first
        }
        guard let row, row.count == 2, let bytes = row[0], let flag = row[1] else { return nil }
        let plaintext = try await opened(bytes, isSealed: flag.first == 1, key: key)
        return try AuthState(encoded: plaintext)
    }

    /// Saves `state` under `key`, committed before this returns.
    ///
    /// - Throws: ``PostgresSessionStoreError``; the stored row is then unchanged.
    public func save(_ state: AuthState, key: String) async throws {
        let bytes = try await sealed(try state.encoded(), key: key)
        let isSealed = sealing != nil
        if let held = heldLock(of: key) {
            try await saveHoldingLock(held, bytes: bytes, isSealed: isSealed)
            return
        }
        let upsert = upsertStatement
        try await run(for: key) { connection in
            try connection.execute(upsert, [.text(key), .bytes(bytes), .bool(isSealed)])
        }
    }

    /// Writes the row `$1` with state `$2` and sealed flag `$3`, inserting it if it is new.
    var upsertStatement: String {
        """
        INSERT INTO \(table) (key, state, sealed, updated_at) VALUES ($1::text, $2::bytea, $3::boolean, now())
        ON CONFLICT (key) DO UPDATE SET state = EXCLUDED.state, sealed = EXCLUDED.sealed, updated_at = now()
        """
    }

    /// Removes the session saved under `key`.
    ///
    /// - Throws: ``PostgresSessionStoreError``.
    public func remove(key: String) async throws {
        let table = self.table
        try await run(for: key) { connection in
            try connection.execute("DELETE FROM \(table) WHERE key = $1::text", [.text(key)])
        }
    }

    /// The keys of the saved sessions, sorted by their UTF-8 bytes.
    ///
    /// - Throws: ``PostgresSessionStoreError``.
    public func keys() async throws -> [String] {
        let table = self.table
        let rows = try await run(for: nil) { connection in
            try connection.execute("SELECT key FROM \(table) ORDER BY key COLLATE \"C\"")
        }
        return rows.compactMap { $0.first.flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Runs `body` while holding the PostgreSQL advisory lock of `key`, which every process
    /// sharing the database respects. The body's loads, saves and removals of `key` use the
    /// lock's connection; a body nested in another for the same key runs under the lock it holds.
    ///
    /// - Throws: What `body` throws; ``PostgresSessionStoreError/Kind/lockTimeout`` when another
    ///   process held the lock for longer than ``lockTimeout`` (nothing ran);
    ///   ``PostgresSessionStoreError/Kind/connectionLost`` when the lock's connection broke.
    public func withExclusiveAccess<Result: Sendable>(
        to key: String,
        _ body: @Sendable () async throws -> Result
    ) async throws -> Result {
        if heldLock(of: key) != nil { return try await body() }
        let held = try await acquire(key)
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await HeldLock.$current.withValue(HeldLock.current + [held]) { try await body() })
        } catch {
            outcome = .failure(error)
        }
        await release(held)
        return try outcome.get()
    }

    /// Closes the store's connections (those in use once they are returned); later calls fail
    /// with ``PostgresSessionStoreError/Kind/closed``.
    public func close() async {
        await pool.close()
    }

    /// Runs `work` on the connection holding `key`'s lock when this task holds it, else on a
    /// connection of the pool.
    @discardableResult
    func run<Value: Sendable>(
        for key: String?,
        _ work: @escaping @Sendable (PostgresConnection) throws -> Value
    ) async throws -> Value {
        if let key, let held = heldLock(of: key) {
            return try await held.connection.run(.holdingLock, work)
        }
        let connection = try await pool.checkOut()
        do {
            let value = try await connection.run(.reconnecting, work)
            pool.checkIn(connection)
            return value
        } catch {
            pool.checkIn(connection)
            throw error
        }
    }

    func heldLock(of key: String) -> HeldLock? {
        HeldLock.current.first { $0.pool == poolID && $0.key == key }
    }
}

/// A lock this task holds, the connection holding it, and the lease that marks the row as held.
struct HeldLock: Sendable {
    let pool: ObjectIdentifier
    let key: String
    let connection: PooledConnection
    /// Who holds the lease (unique per acquisition).
    let owner: String

    /// The locks held by the current task (and inherited by its child tasks).
    @TaskLocal static var current: [HeldLock] = []
}
