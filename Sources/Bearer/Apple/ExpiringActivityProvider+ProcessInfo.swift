@_spi(Bridge) import BearerCore

#if canImport(Darwin) && !os(macOS)
    import Foundation

    /// The system's expiring activities: `ProcessInfo.performExpiringActivity(withReason:using:)`
    /// (iOS 8.2, Mac Catalyst 13.1, tvOS 9, visionOS 1, watchOS 2; not macOS, whose processes are
    /// not suspended with a lock held). Every decision is ``ExpiringActivity``'s.
    struct ProcessInfoExpiringActivities: ExpiringActivityProvider {
        func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {
            ProcessInfo.processInfo.performExpiringActivity(withReason: reason, using: block)
        }
    }
#endif
