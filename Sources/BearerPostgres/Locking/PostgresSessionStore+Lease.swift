import BearerCore

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
/// revoke the grant. So the lock is also written into the row, as a lease of ``lockTimeout``
/// renewed every quarter of it while the body runs: whoever takes the lock and finds another
/// owner's live lease gives the lock back and waits. The holder reconnects its own pool place
/// and saves there while the row carries its lease; a holder whose save failed keeps the lease
/// until it runs out, as its tokens exist only in its memory. OAuth exchanges under the lock are
/// given up before the lease ends as far as the holder knows (`Access.exchangeDeadline`).
///
/// A lease renewed before the server last started (or recovered from a crash) counts from that
/// start instead: a restart ends every holder's connection through no fault of theirs, and each
/// gets a whole lease from then to reconnect, renew and save. A holder that dies leaves a lease
/// that runs out within the lock timeout. The server's clock decides, so the rule holds across
/// machines.
///
/// Tasks of one store wait for the key in its turns (``AsyncKeyedLock``) without a connection; the one whose
/// turn it is waits for the lock in PostgreSQL's queue, first come first served across every
/// instance, on one connection, with the connection's `lock_timeout` set to what is left of the
/// store's. The whole wait lasts at most the lock timeout, and ends at once when the task is
/// cancelled (closing the waiting connection).
extension PostgresSessionStore {
    /// The error of a wait for a key's lock that lasted the lock timeout.
    var lockTimeoutError: @Sendable () -> any Error {
        let timeoutMilliseconds = Self.milliseconds(lockTimeout)
        return {
            PostgresSessionStoreError.lockTimeout(
                "Another task or instance held this session's lock (or the lease of a holder whose connection "
                    + "broke) for longer than the lock timeout (\(timeoutMilliseconds) ms); try again.",
                sqlState: nil)
        }
    }

    /// Takes the lock of `key` and, with it, the row's lease; called in the store's turn for the key.
    func acquire(_ key: String, until deadline: ContinuousClock.Instant) async throws -> HeldLock {
        let held = try await takeLock(key, until: deadline, timeout: lockTimeoutError)
        if Task.isCancelled {
            // Taken just as the task was cancelled: given back before anything runs under it.
            await release(held)
            throw CancellationError()
        }
        return held
    }

    private func takeLock(
        _ key: String, until deadline: ContinuousClock.Instant, timeout: @escaping @Sendable () -> any Error
    ) async throws -> HeldLock {
        let (statements, table, owner, lease) = (self.statements.lock, tableName.sql, self.owner, leaseInterval)
        let opensBeyondPool = self.opensBeyondPool
        let usualTimeout = String(Self.milliseconds(lockTimeout))
        var pause = Duration.milliseconds(5)
        // A place beyond the pool kept between two looks at a lease (given back, it would be closed).
        var kept: PooledConnection?
        while true {
            if Task.isCancelled {
                if let kept { pool.checkIn(kept) }
                throw CancellationError()
            }
            let place: PooledConnection
            if let reused = kept {
                (place, kept) = (reused, nil)
            } else {
                place = try await pool.checkOut(until: deadline, beyondSize: opensBeyondPool)
            }
            // A lock nobody holds is granted at once, however little of the wait is left.
            let left = max(1, Self.milliseconds(ContinuousClock.now.duration(to: deadline)))
            let sent = ContinuousClock.now
            let outcome: (locked: Bool, leased: Bool, serial: Int)
            do {
                // The server ends the wait at the deadline (55P03); the store waits a second more for
                // that answer, and a cancelled task ends it by closing the connection.
                let answerBy = max(deadline, ContinuousClock.now) + .seconds(1)
                outcome = try await place.run(.reconnecting, stoppingOnCancellation: true, until: answerBy) {
                    connection in
                    do {
                        try connection.execute(statements.lock, [.text(table), .text(key), .text(String(left))])
                    } catch {
                        // Not granted (timed out, or no table): only the connection's lock timeout
                        // needs putting back, unless the connection is being given up (the wait
                        // was cancelled, or the connection broke).
                        if connection.isHealthy {
                            try Self.resetLockTimeout(statements, to: usualTimeout, on: connection)
                        }
                        // The server's own answer to the timeout did not come in time either.
                        if connection.didTimeOut { throw timeout() }
                        throw error
                    }
                    do {
                        let row = try connection.execute(
                            statements.takeLease, [.text(key), .text(owner), .text(lease), .text(usualTimeout)]
                        ).first
                        let flags = (row ?? []).prefix(2).map { $0?.first == 1 }
                        let (leased, exists) = (flags.first ?? false, flags.last ?? false)
                        guard exists && !leased else { return (true, leased, connection.serial) }
                        // Another owner's lease is live: its holder may still save what it received.
                        try Self.unlock(statements, table: table, key: key, on: connection)
                        return (false, false, connection.serial)
                    } catch {
                        // The lock is held and outlives the failed statement: the connection must
                        // not go back to the pool with it (closing the connection releases it).
                        connection.abandon()
                        throw error
                    }
                }
            } catch let error as PostgresSessionStoreError where error.kind == .lockTimeout {
                pool.checkIn(place)
                throw timeout()
            } catch {
                pool.checkIn(place)
                throw error
            }
            if outcome.locked {
                return HeldLock(
                    key: key, place: place, serial: outcome.serial,
                    isLeased: outcome.leased, leaseEnd: sent + lockTimeout)
            }
            // Leased by a holder whose connection broke: no queue to wait in, so look again soon.
            let looksAgain = ContinuousClock.now + pause < deadline
            let keeps = looksAgain && opensBeyondPool
            if !keeps { pool.checkIn(place) }
            guard looksAgain else { throw timeout() }
            do {
                try await Task.sleep(for: pause)
            } catch {
                if keeps { pool.checkIn(place) }
                throw error
            }
            if keeps { kept = place }
            pause = min(pause * 2, .milliseconds(100))
        }
    }

    /// Puts the connection's `lock_timeout` back after a wait for a lock that was not granted;
    /// a connection that cannot is abandoned.
    private static func resetLockTimeout(
        _ statements: LockStatements, to milliseconds: String, on connection: PostgresConnection
    ) throws {
        do {
            try connection.execute(statements.resetLockTimeout, [.text(milliseconds)])
        } catch {
            connection.abandon()
            throw error
        }
    }

    /// Gives the lock back, and the lease unless a save under it failed.
    func release(_ held: HeldLock) async {
        let (statements, table, owner, key) = (self.statements.lock, tableName.sql, self.owner, held.key)
        let keepsLease = held.saveFailed
        if !held.lockLost {
            do {
                try await held.place.run(.holdingLock(serial: held.serial)) { connection in
                    if !keepsLease { try connection.execute(statements.clear, [.text(key), .text(owner)]) }
                    try Self.unlock(statements, table: table, key: key, on: connection)
                }
                pool.checkIn(held.place)
                return
            } catch {
                // Closing the connection releases its lock; the lease is cleared below.
                await held.place.discardConnection()
            }
        }
        if !keepsLease && held.isLeased {
            // On the holder's own place, reconnected; when the server cannot be reached the lease
            // runs out by itself.
            _ = try? await held.place.run(.reconnecting) { connection in
                try connection.execute(statements.clear, [.text(key), .text(owner)])
            }
        }
        pool.checkIn(held.place)
    }

    /// Renews the lease every quarter of the lock timeout until the task is cancelled (a row with
    /// no lease yet has nothing to renew until its first save).
    func renewLease(_ held: HeldLock) async {
        let (renew, owner, key, lease) = (statements.lock.renew, self.owner, held.key, leaseInterval)
        let interval = min(max(lockTimeout / 4, .milliseconds(50)), .seconds(5))
        while true {
            do { try await Task.sleep(for: interval) } catch { return }
            guard held.isLeased else { continue }
            let sent = ContinuousClock.now
            let renewed = try? await runHolding(held) { connection in
                !(try connection.execute(renew, [.text(key), .text(owner), .text(lease)])).isEmpty
            }
            if renewed == true { held.extendLease(to: sent + lockTimeout) }
        }
    }

    /// Runs `work` on the holder's place: on the lock's connection while it lasts, else on the
    /// place reconnected, under the lease alone.
    func runHolding<Value: Sendable>(
        _ held: HeldLock, _ work: @escaping @Sendable (PostgresConnection) throws -> Value
    ) async throws -> Value {
        if !held.lockLost {
            do {
                return try await held.place.run(.holdingLock(serial: held.serial), work)
            } catch let error as PostgresSessionStoreError where error.kind == .connectionLost {
                held.markLockLost()
            }
        }
        return try await held.place.run(.reconnecting, work)
    }

    /// Gives back the lock of `key`; a connection that cannot give it back (or that did not hold
    /// it) is abandoned, so its pool closes it rather than reuse it (closing releases the lock,
    /// and advisory locks stack).
    static func unlock(
        _ statements: LockStatements, table: String, key: String, on connection: PostgresConnection
    ) throws {
        do {
            let released = try connection.execute(statements.unlock, [.text(table), .text(key)])
            guard released.first?.first??.first == 1 else {
                connection.abandon()
                throw PostgresSessionStoreError.connectionLost(
                    "The session's lock was not held by its connection any more; the connection was closed.")
            }
        } catch {
            connection.abandon()
            throw error
        }
    }

    /// The lease's length as a PostgreSQL interval: the lock timeout.
    var leaseInterval: String { "\(Self.milliseconds(lockTimeout)) milliseconds" }

    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
