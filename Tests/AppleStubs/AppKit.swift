// swift-format-ignore-file
// (An interface transcribed from Apple's documentation, kept in its spelling.)
// Interface stub of AppKit (macOS flavour only), for type-checking on Linux. Never shipped or run.
import Foundation

/// developer.apple.com/documentation/appkit/nswindow — `@MainActor class NSWindow`.
@MainActor open class NSWindow: NSObject {}

/// developer.apple.com/documentation/appkit/nsworkspace — `class NSWorkspace`; no `@MainActor`:
/// "You can access this object safely from any thread in your app."
open class NSWorkspace: NSObject {
    /// `class var shared: NSWorkspace { get }`
    open class var shared: NSWorkspace { fatalError("stub") }

    /// `func open(_ url: URL) -> Bool` — "safely from any thread in macOS 10.6 and later".
    open func open(_ url: URL) -> Bool { fatalError("stub") }
}
