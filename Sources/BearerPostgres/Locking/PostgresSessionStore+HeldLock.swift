#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Saves and removals by the holder of a key's lock, which must land even when the lock's
/// connection broke: they go through the holder's own pool place, reconnected, under its lease.
extension PostgresSessionStore {
    /// Saves under the lock on its connection; when that connection broke, saves on the holder's
    /// reconnected place while the row still carries its live lease, trying for up to twice the
    /// lock timeout while the server cannot be reached.
    ///
    /// - Throws: ``PostgresSessionStoreError``; the holder then keeps its lease when it gives the
    ///   lock back, so no other instance spends the refresh token the unsaved session replaced.
    ///
    /// - Parameters:
    ///   - held: The lock.
    ///   - bytes: The state, sealed when the store seals.
    ///   - isSealed: Whether it is.
    ///   - columns: What the row says of the session beside its state.
    ///   - clearsEnd: Whether the save replaces a session the provider ended (a new sign-in), so the
    ///     row's `ended_at` is cleared; otherwise it is kept as the row has it.
    func saveHoldingLock(
        _ held: HeldLock, bytes: Data, isSealed: Bool, columns: SessionColumns, clearsEnd: Bool
    ) async throws {
        let (statements, key, owner, lease) = (self.statements, held.key, self.owner, leaseInterval)
        if !held.lockLost {
            do {
                try await held.place.run(.holdingLock(serial: held.serial)) { connection in
                    try connection.execute(
                        statements.lock.saveHoldingLock,
                        [.text(key), .bytes(bytes), .bool(isSealed), .text(owner), .text(lease)] + columns.parameters
                            + [.bool(clearsEnd)])
                }
                held.markLeased()
                held.markSaved()
                return
            } catch let error as PostgresSessionStoreError where error.kind == .connectionLost {
                held.markLockLost()
            } catch {
                held.markSaveFailed()
                throw error
            }
        }
        var reason = "the server could not be reached"
        let giveUp = ContinuousClock.now + lockTimeout * 2
        while ContinuousClock.now < giveUp {
            do {
                let saved = try await held.place.run(.reconnecting) { connection in
                    let parameters: [PostgresConnection.Parameter] = [.text(key), .bytes(bytes), .bool(isSealed)]
                    let rows =
                        held.isLeased
                        ? try connection.execute(
                            statements.lock.saveUnderLease,
                            parameters + [.text(owner)] + columns.parameters + [.bool(clearsEnd)])
                        : try connection.execute(statements.lock.insertUnlessPresent, parameters + columns.parameters)
                    return !rows.isEmpty
                }
                if saved {
                    held.markSaved()
                    return
                }
                reason = "its lease had run out and another instance had taken it"
                break
            } catch let error as PostgresSessionStoreError where error.isTransient {
                reason = error.reason
                // Not cut short by the task's cancellation: the tokens being saved exist nowhere else.
                await Task.detached { try? await Task.sleep(for: .milliseconds(100)) }.value
            } catch {
                reason = "\(error)"
                break
            }
        }
        held.markSaveFailed()
        throw PostgresSessionStoreError.connectionLost(
            "The connection holding the session's lock broke and the session could not be saved again "
                + "(\(reason)); the new tokens are kept in memory, unsaved, and the session's lease is kept "
                + "until it runs out.")
    }

    /// Removes the row under the lock on its connection; when that connection broke, on the
    /// holder's reconnected place while the row carries its live lease.
    ///
    /// - Throws: ``PostgresSessionStoreError``; ``PostgresSessionStoreError/Kind/connectionLost``
    ///   when the row is still there but its lease ran out and another instance took it.
    func removeHoldingLock(_ held: HeldLock) async throws {
        let (statements, key, owner) = (self.statements, held.key, self.owner)
        if !held.lockLost {
            do {
                try await held.place.run(.holdingLock(serial: held.serial)) { connection in
                    try connection.execute(statements.delete, [.text(key)])
                }
                return
            } catch let error as PostgresSessionStoreError where error.kind == .connectionLost {
                held.markLockLost()
            }
        }
        let outcome = try await held.place.run(.reconnecting) { connection in
            let row = try connection.execute(statements.lock.removeUnderLease, [.text(key), .text(owner)]).first
            return (row ?? []).map { $0?.first == 1 }
        }
        guard outcome.count == 2, outcome[0] || !outcome[1] else {
            throw PostgresSessionStoreError.connectionLost(
                "The connection holding the session's lock broke and its lease ran out before the session could "
                    + "be removed; it is still stored. Try again.")
        }
    }
}
