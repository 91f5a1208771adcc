public import BearerCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Pending web sign-ins in a table beside the sessions (the sessions table's name followed by
/// `_pending`, made by ``prepareSchema()``), so that the instance a browser's callback reaches
/// finishes a sign-in another instance began, and two instances handed the same callback
/// cannot both finish it: taking a pending sign-in deletes its row in the same statement.
/// Rows are sealed with the store's ``Sealing`` (their PKCE verifier is a secret until the code
/// is exchanged), and rows older than a day are deleted as new ones are saved.
extension PostgresSessionStore: PendingSignInStore {
    /// Keeps `pending` under its `state`.
    ///
    /// - Throws: ``PostgresSessionStoreError``: ``PostgresSessionStoreError/Kind/invalidConfiguration``
    ///   when the sessions table's name is too long to name a pending table beside it (more than
    ///   55 bytes), ``PostgresSessionStoreError/Kind/schemaMissing`` before ``prepareSchema()``.
    public func savePendingSignIn(_ pending: PendingSignIn) async throws {
        let table = try pendingTable()
        let bytes = try await sealed(try pending.encoded(), key: Self.sealingKey(pending.state))
        let isSealed = sealing != nil
        try await run { connection in
            try connection.execute(
                "DELETE FROM \(table) WHERE created_at < now() - interval '1 day'")
            try connection.execute(
                """
                INSERT INTO \(table) (state, pending, sealed, created_at) VALUES ($1::text, $2::bytea, $3::boolean, now())
                ON CONFLICT (state) DO UPDATE SET pending = EXCLUDED.pending, sealed = EXCLUDED.sealed
                """,
                [.text(pending.state), .bytes(bytes), .bool(isSealed)])
        }
    }

    /// Removes and returns the pending sign-in kept under `state`; of two callers with the same
    /// `state`, at most one gets it.
    ///
    /// - Throws: ``PostgresSessionStoreError``, or `BearerError` when the row cannot be decoded
    ///   (it is removed all the same: it could never be finished).
    public func takePendingSignIn(state: String) async throws -> PendingSignIn? {
        let table = try pendingTable()
        let row = try await run { connection in
            try connection.execute(
                "DELETE FROM \(table) WHERE state = $1::text RETURNING pending, sealed", [.text(state)]
            ).first
        }
        guard let row, row.count == 2, let bytes = row[0], let flag = row[1] else { return nil }
        let plaintext = try await opened(bytes, isSealed: flag.first == 1, key: Self.sealingKey(state))
        return try PendingSignIn(encoded: plaintext)
    }

    private func pendingTable() throws -> String {
        guard let table = tableName.suffixed(Self.pendingTableSuffix) else {
            throw PostgresSessionStoreError.invalidConfiguration(
                "The sessions table's name is too long for a pending sign-ins table beside it (the name followed "
                    + "by \(Self.pendingTableSuffix) must fit in 63 bytes); choose a shorter table name.")
        }
        return table.sql
    }

    /// What the sealing hook is given as the key of a pending sign-in, so that it can never be
    /// opened as a session's row, nor a session's as a pending sign-in.
    private static func sealingKey(_ state: String) -> String { "pending-sign-in/" + state }
}
