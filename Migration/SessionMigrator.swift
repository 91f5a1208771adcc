public import Bearer
@_spi(Migration) import BearerCore
public import Foundation

/// Moves sessions from a legacy store into a Bearer ``Bearer/SessionStore`` without ever holding
/// the only copy in memory.
///
/// For each item: if the destination already holds the key, nothing is overwritten; otherwise the
/// legacy item is read, decoded, saved, read back and compared, and only then removed. A crash or
/// an error at any step leaves at least one readable copy, and running the migrator again
/// finishes the job.
///
/// ```swift
/// let migrator = SessionMigrator(from: FileKeychainLegacyStore(), to: KeychainSessionStore()) { data in
///     try GTMAppAuthArchive.decode(data)
/// }
/// let report = try await migrator.migrate(item: "MyApp-Google", to: "default")
/// ```
public struct SessionMigrator: Sendable {
    /// What happened to one item.
    public enum Outcome: String, Sendable, Hashable {
        /// The session was saved to the destination, checked, and the legacy item removed.
        case migrated
        /// There was no legacy item.
        case nothingToMigrate
        /// The destination already held a session for the key; it was not overwritten. The legacy
        /// item was removed when it held the same session (an earlier run was interrupted), else kept.
        case destinationAlreadyPresent
    }

    private let legacy: any LegacyItemStore
    private let destination: any SessionStore
    private let decode: @Sendable (Data) throws -> AuthState

    /// Creates a migrator.
    ///
    /// - Parameters:
    ///   - legacy: Where the legacy items are.
    ///   - destination: Where sessions go.
    ///   - decode: Reads one legacy item into a session.
    public init(
        from legacy: any LegacyItemStore,
        to destination: any SessionStore,
        decode: @escaping @Sendable (Data) throws -> AuthState
    ) {
        self.legacy = legacy
        self.destination = destination
        self.decode = decode
    }

    /// Migrates the legacy item `item` to the destination key `key`.
    ///
    /// - Parameters:
    ///   - item: The legacy item's name.
    ///   - key: The destination key.
    /// - Returns: What happened.
    /// - Throws: The failing step's error; both copies are then as they were, or the destination
    ///   holds a verified copy and the legacy item is still there.
    @discardableResult
    public func migrate(item: String, to key: String) async throws -> Outcome {
        try await destination.withExclusiveAccess(to: key) { access in
            try await migrateHoldingLock(item: item, key: key, access)
        }
    }

    private func migrateHoldingLock(
        item: String,
        key: String,
        _ destination: some ExclusiveSessionAccess
    ) async throws -> Outcome {
        if let existing = try await destination.load() {
            if let data = try await legacy.read(item), let session = try? decode(data), session == existing {
                try await legacy.remove(item)
            }
            return .destinationAlreadyPresent
        }
        guard let data = try await legacy.read(item) else { return .nothingToMigrate }
        let session = try decode(data)
        try await destination.save(session, replacing: nil)
        let readBack: AuthState?
        do {
            readBack = try await destination.load()
        } catch {
            try? await destination.remove()
            throw error
        }
        guard readBack == session else {
            try? await destination.remove()
            throw MigrationError.verificationFailed(
                "The session saved under \(key) did not read back the same, so it was removed and the legacy item "
                    + "\(item) kept; check that the session store keeps what it is given, then migrate again."
            )
        }
        try await legacy.remove(item)
        return .migrated
    }

    /// Migrates the legacy item `item` into the destination store as its user's account in the
    /// ``AccountList`` of `key`, beside the accounts already there: the way to bring in several
    /// legacy sessions (one per user) under one key. The item is removed only once the account
    /// reads back exactly as decoded.
    ///
    /// ```swift
    /// let migrator = SessionMigrator(from: legacy, to: KeychainSessionStore()) { try GTMAppAuthArchive.decode($0) }
    /// for item in ["MyApp-Google-work", "MyApp-Google-home"] {
    ///     try await migrator.migrate(item: item, toAccountsOf: "default")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - item: The legacy item's name.
    ///   - key: The account list's key.
    /// - Returns: ``Outcome/migrated``; ``Outcome/nothingToMigrate`` when there is no such item;
    ///   ``Outcome/destinationAlreadyPresent`` when the list already has an account of that user
    ///   (it is kept; the legacy item is removed only if it holds the same session).
    /// - Throws: ``MigrationError`` when the item cannot be decoded or does not read back (both
    ///   are kept then); `BearerError` `unknownAccount` when it names no user and the list holds
    ///   named accounts; the stores' errors.
    @discardableResult
    public func migrate(item: String, toAccountsOf key: String) async throws -> Outcome {
        let accounts = AccountList(store: destination, key: key)
        guard let data = try await legacy.read(item) else { return .nothingToMigrate }
        let session = try decode(data)
        if let existing = try await accounts.account(of: session) {
            if try await destination.load(key: existing.key)?.withoutAccountChoice == session {
                try await legacy.remove(item)
            }
            return .destinationAlreadyPresent
        }
        let account = try await accounts.add(session)
        let verified = try await destination.withExclusiveAccess(to: account.key) { access -> Bool in
            guard let stored = try await access.load() else { return false }
            guard stored.withoutAccountChoice == session else {
                // What this call wrote, read back otherwise, is removed; anything else is kept.
                if stored.client.id == session.client.id, stored.refreshToken == session.refreshToken {
                    try await access.remove()
                }
                return false
            }
            return true
        }
        guard verified else {
            throw MigrationError.verificationFailed(
                "The account saved under \(account.key) did not read back the same, so the legacy item \(item) was "
                    + "kept; check that the session store keeps what it is given, then migrate again."
            )
        }
        try await legacy.remove(item)
        return .migrated
    }

    /// Migrates several items, going on after a failure.
    ///
    /// - Parameter items: Pairs of legacy item name and destination key.
    /// - Returns: For each pair, its outcome or its error.
    public func migrate(_ items: [(item: String, key: String)]) async -> [(
        item: String, result: Result<Outcome, any Error>
    )] {
        var results: [(item: String, result: Result<Outcome, any Error>)] = []
        for (item, key) in items {
            do {
                results.append((item, .success(try await migrate(item: item, to: key))))
            } catch {
                results.append((item, .failure(error)))
            }
        }
        return results
    }
}
