// swift-format-ignore-file
// (An interface transcribed from Apple's documentation, kept in its spelling.)
// Interface stub of AppKit, for type-checking on Linux. Never shipped or run. The module can be
// imported on macOS and in Mac Catalyst apps, where these declarations are unavailable.
import Foundation

/// developer.apple.com/documentation/appkit/nswindow — `@MainActor class NSWindow` (macOS 10.0).
@available(macOS 10.0, *)
@available(iOS, unavailable) @available(macCatalyst, unavailable) @available(tvOS, unavailable)
@available(visionOS, unavailable) @available(watchOS, unavailable)
@MainActor open class NSWindow: NSObject {}

/// developer.apple.com/documentation/appkit/nsworkspace — `class NSWorkspace` (macOS 10.0); no
/// `@MainActor`: "You can access this object safely from any thread in your app."
@available(macOS 10.0, *)
@available(iOS, unavailable) @available(macCatalyst, unavailable) @available(tvOS, unavailable)
@available(visionOS, unavailable) @available(watchOS, unavailable)
open class NSWorkspace: NSObject {
    /// `class var shared: NSWorkspace { get }`
    open class var shared: NSWorkspace { fatalError("stub") }

    /// `func open(_ url: URL) -> Bool` — "safely from any thread in macOS 10.6 and later".
    open func open(_ url: URL) -> Bool { fatalError("stub") }
}
