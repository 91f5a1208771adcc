// swift-format-ignore-file
// (An interface transcribed from Apple's documentation, kept in its spelling.)
// What Apple's Foundation declares and swift-corelibs-foundation (the Foundation these checks
// compile against) does not, and what Apple's Foundation has that swift-corelibs-foundation keeps
// in FoundationNetworking (URLSession, URLRequest and their kin), re-exported here.
// scripts/check-apple imports this module implicitly into every file it compiles as an Apple
// platform (-import-module), so the code says `import Foundation` as it does on Apple platforms.
// Never shipped or run.
public import Foundation
@_exported public import FoundationNetworking

extension FileManager {
    /// developer.apple.com/documentation/foundation/filemanager/containerurl(forsecurityapplicationgroupidentifier:)
    /// `func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL?`
    /// (iOS 7, Mac Catalyst 13.1, macOS 10.8, tvOS 9, visionOS 1, watchOS 2). `nil` on iOS when the
    /// group is not in the app's entitlements; on macOS a URL is always returned.
    @available(iOS 7.0, macCatalyst 13.1, macOS 10.8, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        fatalError("stub")
    }
}

extension ProcessInfo {
    /// developer.apple.com/documentation/foundation/processinfo/performexpiringactivity(withreason:using:)
    /// `func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable
    /// (Bool) -> Void)` (iOS 8.2, Mac Catalyst 13.1, tvOS 9, visionOS 1, watchOS 2; the page lists
    /// no macOS). Runs the block on a concurrent queue: with false once the system granted time,
    /// with true when it could not, or again with true when it takes the time back.
    @available(iOS 8.2, macCatalyst 13.1, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
    @available(macOS, unavailable)
    public func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {
        fatalError("stub")
    }
}
