// swift-format-ignore-file
// (An interface transcribed from Apple's documentation, kept in its spelling.)
// Interface stub of AuthenticationServices, for type-checking on Linux. Never shipped or run.
// Declarations and availability from developer.apple.com/documentation/authenticationservices;
// SwiftUI's WebAuthenticationSession is not here but in the cross-import overlay
// _AuthenticationServices_SwiftUI, as Apple ships it.
import Foundation

#if STUB_MACOS
    import AppKit
    /// `typealias ASPresentationAnchor = NSWindow` (macOS 10.15).
    @available(macOS 10.15, *)
    @available(iOS, unavailable) @available(tvOS, unavailable) @available(visionOS, unavailable)
    @available(watchOS, unavailable)
    public typealias ASPresentationAnchor = NSWindow
#else
    import UIKit
    /// On iOS, iPadOS, Mac Catalyst, tvOS and visionOS the anchor is a `UIWindow` (ASFoundation.h);
    /// watchOS has none.
    @available(iOS 12.0, macCatalyst 13.0, tvOS 13.0, visionOS 1.0, *)
    @available(macOS, unavailable) @available(watchOS, unavailable)
    public typealias ASPresentationAnchor = UIWindow
#endif

/// `let ASWebAuthenticationSessionErrorDomain: String`
@available(iOS 12.0, macCatalyst 12.0, macOS 10.15, tvOS 16.0, visionOS 1.0, watchOS 6.2, *)
public let ASWebAuthenticationSessionErrorDomain = "com.apple.AuthenticationServices.WebAuthenticationSession"

/// `struct ASWebAuthenticationSessionError`; the raw values are the header's.
@available(iOS 12.0, macCatalyst 12.0, macOS 10.15, tvOS 16.0, visionOS 1.0, watchOS 6.2, *)
public struct ASWebAuthenticationSessionError: Error {
    public enum Code: Int, Sendable {
        case canceledLogin = 1
        /// iOS 13, macOS 10.15, visionOS 1; not tvOS or watchOS.
        @available(iOS 13.0, macCatalyst 13.1, macOS 10.15, visionOS 1.0, *)
        @available(tvOS, unavailable) @available(watchOS, unavailable)
        case presentationContextNotProvided = 2
        /// iOS 13, macOS 10.15, visionOS 1; not tvOS or watchOS.
        @available(iOS 13.0, macCatalyst 13.1, macOS 10.15, visionOS 1.0, *)
        @available(tvOS, unavailable) @available(watchOS, unavailable)
        case presentationContextInvalid = 3
    }
    public let code: Code
}

/// `@MainActor protocol ASWebAuthenticationPresentationContextProviding : NSObjectProtocol`
/// (iOS 13, macOS 10.15, visionOS 1; not tvOS or watchOS).
@available(iOS 13.0, macCatalyst 13.1, macOS 10.15, visionOS 1.0, *)
@available(tvOS, unavailable) @available(watchOS, unavailable)
@MainActor public protocol ASWebAuthenticationPresentationContextProviding: NSObjectProtocol {
    /// `func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor`
    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
}

/// `class ASWebAuthenticationSession : NSObject` (iOS 12, macOS 10.15, tvOS 16, visionOS 1, watchOS 6.2).
@available(iOS 12.0, macCatalyst 12.0, macOS 10.15, tvOS 16.0, visionOS 1.0, watchOS 6.2, *)
open class ASWebAuthenticationSession: NSObject {
    /// `typealias CompletionHandler = (URL?, (any Error)?) -> Void`
    public typealias CompletionHandler = (URL?, (any Error)?) -> Void

    /// `class Callback` (iOS 17.4, macOS 14.4, tvOS 17.4, visionOS 1.1, watchOS 10.4).
    @available(iOS 17.4, macCatalyst 17.4, macOS 14.4, tvOS 17.4, visionOS 1.1, watchOS 10.4, *)
    open class Callback: NSObject {
        /// `init()` is unavailable (`- (instancetype)init NS_UNAVAILABLE;` in the header): a
        /// callback is made only by ``customScheme(_:)`` or ``https(host:path:)``.
        @available(*, unavailable)
        public override init() { fatalError("stub") }
        /// `class func customScheme(_ customScheme: String) -> Self`
        open class func customScheme(_ customScheme: String) -> Self { fatalError("stub") }
        /// `class func https(host: String, path: String) -> Self`
        open class func https(host: String, path: String) -> Self { fatalError("stub") }
        /// `func matchesURL(_ url: URL) -> Bool`
        open func matchesURL(_ url: URL) -> Bool { fatalError("stub") }
    }

    /// `init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping CompletionHandler)`
    /// (iOS 12, macOS 10.15, tvOS 16, visionOS 1, watchOS 6.2; deprecated in 27.0 on each in
    /// favour of `init(url:callback:completionHandler:)`).
    @available(iOS, introduced: 12.0, deprecated: 27.0)
    @available(macCatalyst, introduced: 12.0, deprecated: 27.0)
    @available(macOS, introduced: 10.15, deprecated: 27.0)
    @available(tvOS, introduced: 16.0, deprecated: 27.0)
    @available(visionOS, introduced: 1.0, deprecated: 27.0)
    @available(watchOS, introduced: 6.2, deprecated: 27.0)
    public init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping CompletionHandler) {}

    /// `init(url URL: URL, callback: Callback, completionHandler: @escaping CompletionHandler)`
    @available(iOS 17.4, macCatalyst 17.4, macOS 14.4, tvOS 17.4, visionOS 1.1, watchOS 10.4, *)
    public init(url URL: URL, callback: Callback, completionHandler: @escaping CompletionHandler) {}

    /// `weak var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)?`
    /// (iOS 13, macOS 10.15, visionOS 1; not tvOS or watchOS, like the protocol).
    @available(iOS 13.0, macCatalyst 13.1, macOS 10.15, visionOS 1.0, *)
    @available(tvOS, unavailable) @available(watchOS, unavailable)
    weak open var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)?

    /// `var prefersEphemeralWebBrowserSession: Bool { get set }` (iOS 13, macOS 10.15, visionOS 1,
    /// watchOS 6.2; not tvOS)
    @available(iOS 13.0, macCatalyst 13.1, macOS 10.15, visionOS 1.0, watchOS 6.2, *)
    @available(tvOS, unavailable)
    open var prefersEphemeralWebBrowserSession: Bool = false

    /// `func start() -> Bool`
    open func start() -> Bool { fatalError("stub") }

    /// `func cancel()` (iOS 12, macOS 10.15, visionOS 1, watchOS 6.2; not tvOS)
    @available(iOS 12.0, macCatalyst 12.0, macOS 10.15, visionOS 1.0, watchOS 6.2, *)
    @available(tvOS, unavailable)
    open func cancel() {}
}
