#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Opens a URL in a browser, for agents that do not show the page themselves
/// (``LoopbackAgent``, ``DefaultBrowserAgent``).
///
/// ```swift
/// let opener = BrowserOpener { url in print("Open \(url) to sign in.") }
/// ```
public struct BrowserOpener: Sendable {
    private let body: @Sendable (URL) async throws -> Void

    /// An opener that runs `body`.
    ///
    /// - Parameter body: Opens the URL; it should return once the browser has been asked, not
    ///   wait for the user.
    public init(_ body: @escaping @Sendable (URL) async throws -> Void) {
        self.body = body
    }

    /// Opens `url`.
    ///
    /// - Parameter url: The authorization page.
    /// - Throws: What the opener throws.
    public func open(_ url: URL) async throws {
        try await body(url)
    }
}
