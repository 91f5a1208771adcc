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
/// given up before the lease ends as far as the holder knows (``ExchangeDeadline``).
///
/// A lease renewed before the server last started (or recovered from a crash) counts from that
/// start instead: a restart ends every holder's connection through no fault of theirs, and each
/// gets a whole lease from then to reconnect, renew and save. A holder that dies leaves a lease
/// that runs out within the lock timeout. The server's clock decides, so the rule holds across
/// machines.
///
/// Waiting never holds a connection: tasks of the process wait for the key in its ``KeyQueue``,
/// and the one whose turn it is tries the lock (`pg_try_advisory_lock`) and sleeps between
/// tries, so the whole wait, however many tries, lasts at most the lock timeout and ends at once
/// when the task is cancelled.
extension PostgresSessionStore {
    func acquire(_ key: String) async throws -> HeldLock {
        let deadline = ContinuousClock.now + lockTimeout
        let timeoutMilliseconds = Self.milliseconds(lockTimeout)
        let timeout: @Sendable () -> any Error = {
            PostgresSessionStoreError.lockTimeout(
                "Another task or instance held this session's lock (or the lease of a holder whose connection "
                    + "broke) for longer than the lock timeout (\(timeoutMilliseconds) ms); try again.",
                sqlState: nil)
        }
        try await queue.enter(key, until: deadline, timeout: timeout)
        let held: HeldLock
        do {
            held = try await takeLock(key, until: deadline, timeout: timeout)
        } catch {
            queue.leave(key)
            throw error
        }
        if Task.isCancelled {
            // Taken just as the task was cancelled: given back (with the turn) before anything
            // runs under it.
            await release(held)
            throw CancellationError()
        }
        return held
    }

    private func takeLock(
        _ key: String, until deadline: ContinuousClock.Instant, timeout: @Sendable () -> any Error
    ) async throws -> HeldLock {
        let (statements, table, owner) = (self.statements.lock, tableName.sql, self.owner)
        let lease = "\(Self.milliseconds(lockTimeout)) milliseconds"
        var pause = Duration.milliseconds(2)
        while true {
            try Task.checkCancellation()
            let place = try await pool.checkOut(until: deadline)
            let sent = ContinuousClock.now
            let outcome: (locked: Bool, leased: Bool, serial: Int)
            do {
                // The try is answered by the wait's deadline, but is given at least the second any
                // statement may take.
                let answerBy = max(deadline, ContinuousClock.now + .seconds(1))
                outcome = try await place.run(.reconnecting, until: answerBy) { connection in
                    do {
                        let row = try connection.execute(
                            statements.attempt, [.text(table), .text(key), .text(owner), .text(lease)]
                        ).first
                        let flags = (row ?? []).map { $0?.first == 1 }
                        guard flags.count == 3, flags[0] else { return (false, false, connection.serial) }
                        let (leased, exists) = (flags[1], flags[2])
                        guard exists && !leased else { return (true, leased, connection.serial) }
                        // Another owner's lease is live: its holder may still save what it received.
                        try Self.unlock(statements, table: table, key: key, on: connection)
                        return (false, false, connection.serial)
                    } catch {
                        // The statement may have taken the lock before it failed, and a session's
                        // lock outlives the statement: the connection must not go back to the pool
                        // with it (closing the connection releases it).
                        connection.abandon()
                        throw error
                    }
                }
            } catch {
                pool.checkIn(place)
                throw error
            }
            if outcome.locked {
                return HeldLock(
                    pool: ObjectIdentifier(pool), key: key, place: place, serial: outcome.serial,
                    isLeased: outcome.leased, leaseEnd: sent + lockTimeout)
            }
            pool.checkIn(place)
            guard ContinuousClock.now + pause < deadline else { throw timeout() }
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(100))
        }
    }

    /// Gives the lock back, and the lease unless a save under it failed.
    func release(_ held: HeldLock) async {
        let (statements, table, owner, key) = (self.statements.lock, tableName.sql, self.owner, held.key)
        let keepsLease = held.saveFailed
        defer { queue.leave(key) }
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
        let (renew, owner, key) = (statements.lock.renew, self.owner, held.key)
        let lease = "\(Self.milliseconds(lockTimeout)) milliseconds"
        let interval = min(max(lockTimeout / 4, .milliseconds(50)), .seconds(5))
        while true {
            do { try await Task.sleep(for: interval) } catch { return }
            guard held.isLeased else { continue }
            let sent = ContinuousClock.now
            let renewed = try? await runHolding(held) { connection in
                !(try connection.execute(renew, [.text(key), .text(owner), .text(lease)])).isEmpty
            }
            if renewed == true { held.exchangeDeadline.extend(to: sent + lockTimeout) }
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

    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
