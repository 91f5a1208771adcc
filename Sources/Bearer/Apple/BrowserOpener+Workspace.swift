#if canImport(AppKit) && !targetEnvironment(macCatalyst)
    import AppKit
    import Foundation

    extension BrowserOpener {
        /// The user's default browser through `NSWorkspace`, for Mac apps, sandboxed ones included;
        /// pair it with ``DefaultBrowserAgent``.
        public static let workspace = BrowserOpener { url in
            guard NSWorkspace.shared.open(url) else {
                throw BearerError.agentFailed("macOS could not open the default browser; check that one is set.")
            }
        }
    }
#endif
