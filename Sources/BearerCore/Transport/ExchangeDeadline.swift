/// The latest time by which an OAuth exchange made inside a store's exclusive access must be
/// answered, set by a store whose lock can outlive its connection only for a while (the
/// PostgreSQL store's lease), and moved later each time that store renews its claim.
///
/// A token request still running when the claim ends could spend a refresh token that another
/// instance, which took the claim over, spends too; so the request is given up first. Stores
/// whose lock lasts as long as their process (files, memory, the keychain) set none.
package final class ExchangeDeadline: @unchecked Sendable {
    // Unchecked: `latest` is touched only while holding `lock`.
    private let lock = Lock()
    private var latest: ContinuousClock.Instant
    private let now: @Sendable () -> ContinuousClock.Instant

    /// The deadline of the exchanges made by the current task and its child tasks.
    @TaskLocal package static var current: ExchangeDeadline?

    /// Creates a deadline at `instant`.
    ///
    /// - Parameters:
    ///   - instant: The deadline.
    ///   - now: Reads the time the deadline is compared with (tests move it on).
    package init(_ instant: ContinuousClock.Instant, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now })
    {
        latest = instant
        self.now = now
    }

    /// When the exchanges must have been answered.
    package var instant: ContinuousClock.Instant { lock.withLock { latest } }

    /// Moves the deadline to `instant` when that is later.
    package func extend(to instant: ContinuousClock.Instant) {
        lock.withLock { latest = max(latest, instant) }
    }

    /// Runs `exchange`, or gives it up when the deadline passes first.
    ///
    /// - Parameters:
    ///   - host: The server's host, for the message.
    ///   - exchange: The request and its answer.
    /// - Returns: What `exchange` returns.
    /// - Throws: What `exchange` throws; ``BearerError/Kind/network`` when the deadline passed.
    func bounding<Value: Sendable>(
        host: String,
        _ exchange: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await exchange() }
            group.addTask {
                while true {
                    let left = self.now().duration(to: self.instant)
                    guard left > .zero else { return nil }
                    try await Task.sleep(for: min(left, .milliseconds(250)))
                }
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw BearerError.network(
                    "No answer from \(host) before the session store's claim on the session ran out (the store "
                        + "could not renew it: its database was unreachable, or the process too busy); the request "
                        + "was given up so that no other instance refreshes with the same token meanwhile. Try again.")
            }
            return value
        }
    }
}
