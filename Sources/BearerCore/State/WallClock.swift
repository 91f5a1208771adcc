#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Where Bearer reads the current time and waits (the device flow's polls), and how far another
/// machine's clock may be from it.
///
/// Apps use ``system``; tests use a controlled clock, whose waits move its time instead of
/// taking it. The ``allowedSkew`` is the one clock-skew
/// setting: every check of a server's timestamps (an ID token's `iat` and `exp`, OpenID Connect
/// Core §3.1.3.7) made with this clock, during sign-in, refresh and the device flow, allows it.
///
/// ```swift
/// let clock = WallClock.system.allowingSkew(120)  // servers may be 2 minutes off
/// ```
public struct WallClock: Sendable {
    /// The skew allowed when none is given: 10 minutes.
    public static let defaultAllowedSkew: TimeInterval = 600

    private let read: @Sendable () -> Date
    private let wait: @Sendable (Duration) async throws -> Void
    /// How far a server's clock may be from this one when checking its timestamps.
    public let allowedSkew: TimeInterval

    /// Creates a clock that reads the time from `read` and waits with `wait`.
    ///
    /// - Parameters:
    ///   - allowedSkew: How far a server's clock may be from this one (10 minutes by default).
    ///   - wait: Waits a duration: `Task.sleep` by default; a test clock moves its time instead.
    ///   - read: Returns the current time.
    public init(
        allowedSkew: TimeInterval = defaultAllowedSkew,
        waitingWith wait: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        _ read: @escaping @Sendable () -> Date
    ) {
        self.read = read
        self.wait = wait
        self.allowedSkew = allowedSkew
    }

    /// The system clock.
    public static let system = WallClock { Date() }

    /// A clock stopped at `date`.
    ///
    /// - Parameter date: The time it always reads.
    /// - Returns: The clock.
    public static func fixed(_ date: Date) -> WallClock {
        WallClock { date }
    }

    /// The current time.
    public func now() -> Date {
        read()
    }

    /// Waits `duration` on this clock.
    ///
    /// - Parameter duration: How long to wait.
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    public func sleep(for duration: Duration) async throws {
        try await wait(duration)
    }

    /// This clock, allowing a different skew.
    ///
    /// - Parameter skew: How far a server's clock may be from this one.
    /// - Returns: The clock.
    public func allowingSkew(_ skew: TimeInterval) -> WallClock {
        WallClock(allowedSkew: skew, waitingWith: wait, read)
    }
}
