public import Foundation

/// Where Bearer reads the current time: the system clock in apps, a controlled clock in tests.
public struct WallClock: Sendable {
    private let read: @Sendable () -> Date

    /// Creates a clock that reads the time from `read`.
    ///
    /// - Parameter read: Returns the current time.
    public init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
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
}
