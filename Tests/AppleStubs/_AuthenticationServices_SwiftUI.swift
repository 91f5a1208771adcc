// swift-format-ignore-file
// (An interface transcribed from Apple's documentation, kept in its spelling.)
// Interface stub of _AuthenticationServices_SwiftUI, the cross-import overlay that a file gets
// when it imports both AuthenticationServices and SwiftUI (the symbols' precise identifiers on
// developer.apple.com start with s:31_AuthenticationServices_SwiftUI). Like Apple's overlays it
// re-exports its declaring module. Never shipped or run.
@_exported public import AuthenticationServices
public import Foundation
public import SwiftUI

/// `@MainActor struct WebAuthenticationSession` (iOS 16.4, macOS 13.3, tvOS 16.4, visionOS 1, watchOS 9.4).
@available(iOS 16.4, macCatalyst 16.4, macOS 13.3, tvOS 16.4, visionOS 1.0, watchOS 9.4, *)
@MainActor public struct WebAuthenticationSession {
    /// `struct BrowserSession` — `Sendable`; `.ephemeral` and `.shared`.
    public struct BrowserSession: Sendable {
        public static var ephemeral: BrowserSession { fatalError("stub") }
        public static var shared: BrowserSession { fatalError("stub") }
    }

    /// `func authenticate(using url: URL, callbackURLScheme: String, preferredBrowserSession:
    /// WebAuthenticationSession.BrowserSession? = nil) async throws -> URL` (iOS 16.4, macOS 13.3,
    /// tvOS 16.4, visionOS 1, watchOS 9.4; deprecated in 27.0 on each but visionOS, as the page
    /// lists it).
    @available(iOS, introduced: 16.4, deprecated: 27.0)
    @available(macCatalyst, introduced: 16.4, deprecated: 27.0)
    @available(macOS, introduced: 13.3, deprecated: 27.0)
    @available(tvOS, introduced: 16.4, deprecated: 27.0)
    @available(watchOS, introduced: 9.4, deprecated: 27.0)
    @available(visionOS, introduced: 1.0)
    public func authenticate(
        using url: URL,
        callbackURLScheme: String,
        preferredBrowserSession: BrowserSession? = nil
    ) async throws -> URL { fatalError("stub") }

    /// `func authenticate(using url: URL, callback: ASWebAuthenticationSession.Callback,
    /// preferredBrowserSession: WebAuthenticationSession.BrowserSession? = nil,
    /// additionalHeaderFields: [String : String]) async throws -> URL` (iOS 17.4, macOS 14.4)
    @available(iOS 17.4, macCatalyst 17.4, macOS 14.4, tvOS 17.4, visionOS 1.1, watchOS 10.4, *)
    public func authenticate(
        using url: URL,
        callback: ASWebAuthenticationSession.Callback,
        preferredBrowserSession: BrowserSession? = nil,
        additionalHeaderFields: [String: String]
    ) async throws -> URL { fatalError("stub") }
}

/// developer.apple.com/documentation/swiftui/environmentvalues/webauthenticationsession
/// (iOS 16.4, macOS 13.3, tvOS 16.4, watchOS 9.4; visionOS as iOS).
@available(iOS 16.4, macCatalyst 16.4, macOS 13.3, tvOS 16.4, visionOS 1.0, watchOS 9.4, *)
extension EnvironmentValues {
    /// `var webAuthenticationSession: WebAuthenticationSession { get }`
    public var webAuthenticationSession: WebAuthenticationSession { fatalError("stub") }
}
