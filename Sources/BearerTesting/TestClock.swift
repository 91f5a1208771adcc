public import Bearer
public import Foundation

/// A clock that tests move by hand, so no test sleeps to wait for an expiry.
///
/// ```swift
/// let clock = TestClock(Date(timeIntervalSince1970: 1_700_000_000))
/// // … create a session with `clock: clock.wallClock`, then:
/// clock.advance(by: 3600)  // the access token is now stale
/// ```
public final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    /// Creates a clock reading `start`.
    ///
    /// - Parameter start: The initial time.
    public init(_ start: Date) {
        current = start
    }

    /// The current time.
    public var now: Date {
        lock.withLock { current }
    }

    /// Moves the clock forward.
    ///
    /// - Parameter seconds: How far.
    public func advance(by seconds: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }

    /// A ``WallClock`` reading this clock. Its waits (the device flow's polls) move this clock
    /// forward by the time waited instead of taking it, so a test of a polling flow runs at once.
    public var wallClock: WallClock {
        WallClock(
            waitingWith: { [self] duration in
                try Task.checkCancellation()
                let (seconds, attoseconds) = duration.components
                advance(by: TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18)
                await Task.yield()
            },
            { [self] in now }
        )
    }
}
