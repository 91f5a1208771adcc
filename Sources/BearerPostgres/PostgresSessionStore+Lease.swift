#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Taking and giving back a key's lock, and the lease that outlives a broken connection.
///
/// The advisory lock ends with its connection. If that connection breaks in the middle of a body
/// (the server restarts, the network drops) while the process lives on, the body may hold tokens
/// the authorization server has just rotated and not yet saved; a second instance that took the
/// lock at once would refresh with the old refresh token, and a server with reuse detection would
/// revoke the grant. So the lock is also written into the row, as a lease of ``lockTimeout``:
/// whoever takes the lock and finds another holder's live lease waits for it (within the same
/// lock timeout), and the holder, whose save failed, saves again on a new connection as long as
/// its lease lasts. A holder that dies leaves a lease that runs out within the lock timeout.
extension PostgresSessionStore {
    func acquire(_ key: String) async throws -> HeldLock {
        let clock = ContinuousClock()
        let deadline = clock.now + lockTimeout
        let table = self.table
        let owner = UUID().uuidString
        let leaseMilliseconds = Self.milliseconds(lockTimeout)
        while true {
            let connection = try await pool.checkOut()
            let leasedByOther: Bool
            do {
                leasedByOther = try await connection.run(.reconnecting) { connection in
                    try connection.execute(
                        "SELECT pg_advisory_lock(hashtext($1::text), hashtext($2::text))", [.text(table), .text(key)])
                    let leased = try connection.execute(
                        """
                        SELECT 1 FROM \(table) WHERE key = $1::text AND lease_owner IS NOT NULL
                        AND lease_until > clock_timestamp()
                        """,
                        [.text(key)])
                    if !leased.isEmpty {
                        try connection.execute(
                            "SELECT pg_advisory_unlock(hashtext($1::text), hashtext($2::text))",
                            [.text(table), .text(key)])
                        return true
                    }
                    try connection.execute(
                        """
                        UPDATE \(table) SET lease_owner = $2::text,
                        lease_until = clock_timestamp() + $3::text::interval WHERE key = $1::text
                        """,
                        [.text(key), .text(owner), .text("\(leaseMilliseconds) milliseconds")])
                    return false
                }
            } catch {
                await pool.checkIn(connection)
                throw error
            }
            if !leasedByOther {
                return HeldLock(
                    pool: ObjectIdentifier(pool), key: key, connection: connection, owner: owner,
                    leaseEnds: clock.now + lockTimeout)
            }
            await pool.checkIn(connection)
            guard clock.now < deadline else {
                throw PostgresSessionStoreError.lockTimeout(
                    "Another instance's lock of this session ended with its connection less than the lock timeout "
                        + "ago, and it may still save tokens it received; try again.",
                    sqlState: nil)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    func release(_ held: HeldLock) async {
        let table = self.table
        let key = held.key
        let owner = held.owner
        do {
            try await held.connection.run(.holdingLock) { connection in
                try connection.execute(
                    "UPDATE \(table) SET lease_owner = NULL, lease_until = NULL WHERE key = $1::text AND lease_owner = $2::text",
                    [.text(key), .text(owner)])
                try connection.execute(
                    "SELECT pg_advisory_unlock(hashtext($1::text), hashtext($2::text))", [.text(table), .text(key)])
            }
            await pool.checkIn(held.connection)
        } catch {
            // Closing the connection releases its lock; the lease is cleared on a new connection
            // when one can be had, else it runs out by itself.
            await held.connection.discardConnection()
            await pool.checkIn(held.connection)
            _ = try? await run(for: nil) { connection in
                try connection.execute(
                    "UPDATE \(table) SET lease_owner = NULL, lease_until = NULL WHERE key = $1::text AND lease_owner = $2::text",
                    [.text(key), .text(owner)])
            }
        }
    }

    /// Saves under the lock on its connection; when that connection broke, saves on new
    /// connections for as long as the lease lasts, and only while the row still carries it.
    func saveHoldingLock(_ held: HeldLock, bytes: Data, isSealed: Bool) async throws {
        let table = self.table
        let key = held.key
        let owner = held.owner
        do {
            try await held.connection.run(.holdingLock) { connection in
                try connection.execute(
                    """
                    INSERT INTO \(table) (key, state, sealed, updated_at) VALUES ($1::text, $2::bytea, $3::boolean, now())
                    ON CONFLICT (key) DO UPDATE SET state = EXCLUDED.state, sealed = EXCLUDED.sealed, updated_at = now()
                    """,
                    [.text(key), .bytes(bytes), .bool(isSealed)])
            }
            return
        } catch let error as PostgresSessionStoreError where error.kind == .connectionLost {
            var lastError = error
            let clock = ContinuousClock()
            while clock.now < held.leaseEnds {
                do {
                    let saved = try await run(for: nil) { connection in
                        try connection.execute(
                            """
                            UPDATE \(table) SET state = $2::bytea, sealed = $3::boolean, updated_at = now()
                            WHERE key = $1::text AND lease_owner = $4::text AND lease_until > clock_timestamp()
                            RETURNING 1
                            """,
                            [.text(key), .bytes(bytes), .bool(isSealed), .text(owner)])
                    }
                    if !saved.isEmpty { return }
                    break
                } catch let retry as PostgresSessionStoreError where retry.isTransient {
                    lastError = retry
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
            throw PostgresSessionStoreError.connectionLost(
                "The connection holding the session's lock broke and the session could not be saved again before "
                    + "its lease ran out (\(lastError.reason)); the new tokens are kept in memory, unsaved.")
        }
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
