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
/// lock timeout), and the holder, whose save failed, saves again on a new connection while the
/// row still carries its lease.
///
/// A lease taken before the server last started counts from that start instead: a restart ends
/// every holder's connection through no fault of the holders, who may still be waiting for the
/// server to come back, so each gets a whole lease from then to save what it holds. A holder that
/// dies leaves a lease that runs out within the lock timeout (of the restart, when the server
/// restarted since). The server's clock and start time decide, so the rule holds across machines.
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
                    try connection.execute(Self.lockStatement, [.text(table), .text(key)])
                    // The lock must never stay on a connection that goes back to the pool: when it
                    // cannot be given back, the connection is abandoned, and closing it releases
                    // the lock (advisory locks stack, so a reused connection would hold it twice).
                    let unlock = { () throws -> Void in
                        do {
                            try connection.execute(Self.unlockStatement, [.text(table), .text(key)])
                        } catch {
                            connection.abandon()
                            throw error
                        }
                    }
                    do {
                        let leased = try connection.execute(
                            """
                            SELECT 1 FROM \(table) WHERE key = $1::text AND lease_owner IS NOT NULL \
                            AND \(Self.leaseIsLive)
                            """,
                            [.text(key)])
                        if leased.isEmpty {
                            try connection.execute(
                                """
                                UPDATE \(table) SET lease_owner = $2::text, lease_taken_at = clock_timestamp(),
                                lease_until = clock_timestamp() + $3::text::interval WHERE key = $1::text
                                """,
                                [.text(key), .text(owner), .text("\(leaseMilliseconds) milliseconds")])
                            return false
                        }
                    } catch {
                        // For example, the table does not exist yet.
                        try? unlock()
                        throw error
                    }
                    try unlock()
                    return true
                }
            } catch {
                pool.checkIn(connection)
                throw error
            }
            if !leasedByOther {
                return HeldLock(
                    pool: ObjectIdentifier(pool), key: key, connection: connection, owner: owner)
            }
            pool.checkIn(connection)
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
        let (table, clearLease) = (self.table, clearLeaseStatement)
        let key = held.key
        let owner = held.owner
        do {
            try await held.connection.run(.holdingLock) { connection in
                try connection.execute(
                    clearLease,
                    [.text(key), .text(owner)])
                try connection.execute(Self.unlockStatement, [.text(table), .text(key)])
            }
            pool.checkIn(held.connection)
        } catch {
            // Closing the connection releases its lock; the lease is cleared on a new connection
            // when one can be had, else it runs out by itself.
            await held.connection.discardConnection()
            pool.checkIn(held.connection)
            _ = try? await run(for: nil) { connection in
                try connection.execute(clearLease, [.text(key), .text(owner)])
            }
        }
    }

    /// Saves under the lock on its connection; when that connection broke, saves on new
    /// connections while the row still carries this lock's live lease (see ``leaseIsLive``),
    /// trying for up to twice the lock timeout while the server cannot be reached.
    func saveHoldingLock(_ held: HeldLock, bytes: Data, isSealed: Bool) async throws {
        let (table, upsert) = (self.table, upsertStatement)
        let key = held.key
        let owner = held.owner
        do {
            try await held.connection.run(.holdingLock) { connection in
                try connection.execute(upsert, [.text(key), .bytes(bytes), .bool(isSealed)])
            }
            return
        } catch let error as PostgresSessionStoreError where error.kind == .connectionLost {
            var lastError = error
            let clock = ContinuousClock()
            let giveUp = clock.now + lockTimeout * 2
            while clock.now < giveUp {
                do {
                    let saved = try await run(for: nil) { connection in
                        try connection.execute(
                            """
                            UPDATE \(table) SET state = $2::bytea, sealed = $3::boolean, updated_at = now()
                            WHERE key = $1::text AND lease_owner = $4::text AND \(Self.leaseIsLive)
                            RETURNING 1
                            """,
                            [.text(key), .bytes(bytes), .bool(isSealed), .text(owner)])
                    }
                    if !saved.isEmpty { return }
                    lastError = .connectionLost("its lease had run out, or another instance had taken it")
                    break
                } catch let retry as PostgresSessionStoreError where retry.isTransient {
                    lastError = retry
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
            throw PostgresSessionStoreError.connectionLost(
                "The connection holding the session's lock broke and the session could not be saved again "
                    + "(\(lastError.reason)); the new tokens are kept in memory, unsaved.")
        }
    }

    /// Takes the advisory lock of table `$1`'s key `$2`, waiting at most the connection's
    /// `lock_timeout`.
    static let lockStatement = "SELECT pg_advisory_lock(hashtext($1::text), hashtext($2::text))"

    /// Gives back the advisory lock of table `$1`'s key `$2`.
    static let unlockStatement = "SELECT pg_advisory_unlock(hashtext($1::text), hashtext($2::text))"

    /// Clears the lease of the row `$1` if `$2` still owns it.
    var clearLeaseStatement: String {
        "UPDATE \(table) SET lease_owner = NULL, lease_taken_at = NULL, lease_until = NULL "
            + "WHERE key = $1::text AND lease_owner = $2::text"
    }

    /// The SQL condition under which a row's lease still holds: until `lease_until`, or, when the
    /// server started after the lease was taken, for as long again from that start.
    static let leaseIsLive = """
        (lease_until > clock_timestamp() OR (lease_taken_at < pg_postmaster_start_time() \
        AND pg_postmaster_start_time() + (lease_until - lease_taken_at) > clock_timestamp()))
        """

    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
