@_spi(Internals) import BearerCore

/// A key's lock as its holder sees it: the pool place whose connection took it, whether the row's
/// lease is this holder's, and what became of the connection.
///
/// The holder's loads and saves run on its own place, never on another connection of the pool:
/// a pool its holders fill could not give one back to save what they hold. When the lock's
/// connection breaks, the same place reconnects, and what was done under the lock is then done
/// under the lease only.
///
/// (`@unchecked`: `state` is touched only while holding `lock`.)
final class HeldLock: @unchecked Sendable {
    /// The session's key.
    let key: String
    /// The pool place whose connection took the lock.
    let place: PooledConnection
    /// Which of the place's connections took the lock (``PostgresConnection/serial``).
    let serial: Int

    private struct State {
        var isLeased: Bool
        var lockLost = false
        var saveFailed = false
        /// When the lease, as far as this holder knows, ends: moved on by each confirmed renewal.
        var leaseEnd: ContinuousClock.Instant
        /// The row's session as this holder last read or wrote it (`.some(nil)`: no row); `nil`
        /// until it has. Nothing else writes the row while the lock or the lease is held.
        var knownCopy: AuthState??
        /// Whether the row was ended by the provider (`ended_at`) when this holder last read it.
        var copyWasEnded = false
    }

    private let lock = Lock()
    private var state: State

    init(
        key: String, place: PooledConnection, serial: Int, isLeased: Bool, leaseEnd: ContinuousClock.Instant
    ) {
        self.key = key
        self.place = place
        self.serial = serial
        self.state = State(isLeased: isLeased, leaseEnd: leaseEnd)
    }

    /// Whether the row carries this holder's lease: taken with the lock, or written with the
    /// first save of a row that did not exist.
    var isLeased: Bool { lock.withLock { state.isLeased } }

    func markLeased() { lock.withLock { state.isLeased = true } }
    /// Whether the lock's connection broke, so only the lease holds.
    var lockLost: Bool { lock.withLock { state.lockLost } }

    /// Whether a save under this lock failed: its tokens exist only in memory, and the lease is
    /// kept when the lock is given back.
    var saveFailed: Bool { lock.withLock { state.saveFailed } }

    func markLockLost() { lock.withLock { state.lockLost = true } }

    func markSaveFailed() { lock.withLock { state.saveFailed = true } }

    func markSaved() { lock.withLock { state.saveFailed = false } }

    /// The row's session as this holder last read or wrote it, if it has.
    var knownCopy: AuthState?? {
        get { lock.withLock { state.knownCopy } }
        set { lock.withLock { state.knownCopy = newValue } }
    }

    /// Whether the row was ended by the provider when this holder last read it.
    var copyWasEnded: Bool {
        get { lock.withLock { state.copyWasEnded } }
        set { lock.withLock { state.copyWasEnded = newValue } }
    }

    /// When the lease, as far as this holder knows, ends.
    var leaseEnd: ContinuousClock.Instant { lock.withLock { state.leaseEnd } }

    /// A renewal sent at some instant was confirmed: the lease ends no earlier than `instant`.
    func extendLease(to instant: ContinuousClock.Instant) {
        lock.withLock { state.leaseEnd = max(state.leaseEnd, instant) }
    }
}
