/// A place in the pool: a thread of its own and, once opened, a connection that only that thread
/// touches. A broken connection is closed and replaced by a new one on next use, except while a
/// lock is held on it: the lock went with the old connection, so the holder must see the failure.
final class PooledConnection: @unchecked Sendable {
    /// How a call treats a connection that is missing or broken.
    enum Use {
        /// Open a connection if there is none; if a connection that was already open turns out to
        /// be broken (the server restarted while it sat idle), replace it and run the work once
        /// more. For work that is safe to repeat and holds no lock.
        case reconnecting
        /// A lock is held on the connection this place opened with serial number `serial` (see
        /// ``PostgresConnection/serial``): never replace it; a broken or replaced connection is
        /// an error, so work meant for the lock's connection never runs on another.
        case holdingLock(serial: Int)
    }

    private let thread: ConnectionThread
    private let settings: ConnectionSettings
    // Touched only on `thread`.
    private var connection: PostgresConnection?
    // Touched only on `thread`: how many connections this place opened.
    private var opened = 0

    init(settings: ConnectionSettings) throws {
        self.thread = try ConnectionThread.start()
        self.settings = settings
    }

    /// Runs `work` on this place's thread with its connection.
    ///
    /// - Parameters:
    ///   - use: How a missing or broken connection is treated.
    ///   - stoppingOnCancellation: Whether the calling task's cancellation ends the work: before
    ///     it starts, or by closing the connection while it waits for the server. Only for work
    ///     whose effect does not matter when it is cut short (reads, taking a lock); never a save.
    ///   - deadline: When every statement of the work must have been answered, when that is
    ///     sooner than each statement's own timeout.
    ///   - work: The blocking work.
    /// - Throws: What `work` throws, ``PostgresSessionStoreError/Kind/connectionFailed`` when no
    ///   connection can be opened, ``PostgresSessionStoreError/Kind/connectionLost`` when it broke,
    ///   `CancellationError` when stopped.
    @discardableResult
    func run<Value: Sendable>(
        _ use: Use,
        stoppingOnCancellation: Bool = false,
        until deadline: ContinuousClock.Instant? = nil,
        _ work: @escaping @Sendable (PostgresConnection) throws -> Value
    ) async throws -> Value {
        let flag = stoppingOnCancellation ? CancellationFlag() : nil
        return try await withTaskCancellationHandler {
            try await thread.run {
                if flag?.isCancelled == true { throw CancellationError() }
                return try self.runHere(use) { connection in
                    connection.cancellation = flag
                    connection.latestDeadline = deadline
                    defer {
                        connection.cancellation = nil
                        connection.latestDeadline = nil
                    }
                    return try work(connection)
                }
            }
        } onCancel: {
            flag?.cancel()
        }
    }

    private func runHere<Value>(_ use: Use, _ work: (PostgresConnection) throws -> Value) throws -> Value {
        switch use {
        case .holdingLock(let serial):
            guard let connection, connection.serial == serial, connection.isHealthy else {
                if connection?.isHealthy == false { self.connection = nil }
                throw PostgresSessionStoreError.connectionLost(
                    "The connection holding the session's lock broke; the lock was released with it. Try again.")
            }
            return try attempt(work, on: connection)
        case .reconnecting:
            if let connection, connection.isHealthy {
                do {
                    return try attempt(work, on: connection)
                } catch let error as PostgresSessionStoreError
                    where error.kind == .connectionLost && !connection.didTimeOut
                {
                    // The connection broke while idle; a fresh one gets the same work once.
                }
            }
            opened += 1
            let fresh = try PostgresConnection(settings: settings, serial: opened)
            connection = fresh
            return try attempt(work, on: fresh)
        }
    }

    private func attempt<Value>(_ work: (PostgresConnection) throws -> Value, on connection: PostgresConnection)
        throws -> Value
    {
        do {
            return try work(connection)
        } catch {
            if !connection.isHealthy { self.connection = nil }
            throw error
        }
    }

    /// Closes the connection, releasing whatever the server held for it (locks included).
    func discardConnection() async {
        _ = try? await thread.run { self.connection = nil }
    }

    /// Closes the connection and ends the thread.
    func close() async {
        await discardConnection()
        thread.stop()
    }
}
