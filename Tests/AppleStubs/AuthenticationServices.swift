// swift-format-ignore-file
// (An interface transcribed from Apple's documentation, kept in its spelling.)
// Interface stub of AuthenticationServices, for type-checking on Linux. Never shipped or run.
// Declarations and availability from developer.apple.com/documentation/authenticationservices.
import Foundation
import SwiftUI

#if STUB_IOS
    import UIKit
    /// On iOS, iPadOS, Mac Catalyst and visionOS the anchor is a `UIWindow` (ASFoundation.h).
    public typealias ASPresentationAnchor = UIWindow
#else
    import AppKit
    /// `typealias ASPresentationAnchor = NSWindow` (macOS).
    public typealias ASPresentationAnchor = NSWindow
#endif

/// `let ASWebAuthenticationSessionErrorDomain: String`
public let ASWebAuthenticationSessionErrorDomain = "com.apple.AuthenticationServices.WebAuthenticationSession"

/// `struct ASWebAuthenticationSessionError`; the raw values are the header's.
public struct ASWebAuthenticationSessionError: Error {
    public enum Code: Int, Sendable {
        case canceledLogin = 1
        case presentationContextNotProvided = 2
        case presentationContextInvalid = 3
    }
    public let code: Code
}

/// `@MainActor protocol ASWebAuthenticationPresentationContextProviding : NSObjectProtocol`
/// (iOS 13, macOS 10.15, visionOS 1; not tvOS or watchOS).
@MainActor public protocol ASWebAuthenticationPresentationContextProviding: NSObjectProtocol {
    /// `func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor`
    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
}

/// `class ASWebAuthenticationSession : NSObject` (iOS 12, macOS 10.15, tvOS 16, visionOS 1, watchOS 6.2).
open class ASWebAuthenticationSession: NSObject {
    /// `typealias CompletionHandler = (URL?, (any Error)?) -> Void`
    public typealias CompletionHandler = (URL?, (any Error)?) -> Void

    /// `class Callback` (iOS 17.4, macOS 14.4, tvOS 17.4, visionOS 1.1, watchOS 10.4).
    @available(iOS 17.4, macOS 14.4, tvOS 17.4, visionOS 1.1, watchOS 10.4, *)
    open class Callback: NSObject {
        /// `class func customScheme(_ customScheme: String) -> Self`
        open class func customScheme(_ customScheme: String) -> Self { fatalError("stub") }
        /// `class func https(host: String, path: String) -> Self`
        open class func https(host: String, path: String) -> Self { fatalError("stub") }
        /// `func matchesURL(_ url: URL) -> Bool`
        open func matchesURL(_ url: URL) -> Bool { fatalError("stub") }
    }

    /// `init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping CompletionHandler)`
    /// (iOS 12, macOS 10.15; to be deprecated in favour of `init(url:callback:completionHandler:)`).
    public init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping CompletionHandler) {}

    /// `init(url URL: URL, callback: Callback, completionHandler: @escaping CompletionHandler)`
    @available(iOS 17.4, macOS 14.4, tvOS 17.4, visionOS 1.1, watchOS 10.4, *)
    public init(url URL: URL, callback: Callback, completionHandler: @escaping CompletionHandler) {}

    /// `weak var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)?`
    weak open var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)?

    /// `var prefersEphemeralWebBrowserSession: Bool { get set }` (iOS 13, macOS 10.15)
    open var prefersEphemeralWebBrowserSession: Bool = false

    /// `var canStart: Bool { get }`
    open var canStart: Bool { fatalError("stub") }

    /// `func start() -> Bool`
    open func start() -> Bool { fatalError("stub") }

    /// `func cancel()`
    open func cancel() {}
}

/// `@MainActor struct WebAuthenticationSession` (iOS 16.4, macOS 13.3, tvOS 16.4, visionOS 1, watchOS 9.4).
@available(iOS 16.4, macOS 13.3, tvOS 16.4, visionOS 1.0, watchOS 9.4, *)
@MainActor public struct WebAuthenticationSession {
    /// `struct BrowserSession` — `Sendable`; `.ephemeral` and `.shared`.
    public struct BrowserSession: Sendable {
        public static var ephemeral: BrowserSession { fatalError("stub") }
        public static var shared: BrowserSession { fatalError("stub") }
    }

    /// `func authenticate(using url: URL, callbackURLScheme: String, preferredBrowserSession:
    /// WebAuthenticationSession.BrowserSession? = nil) async throws -> URL`
    public func authenticate(
        using url: URL,
        callbackURLScheme: String,
        preferredBrowserSession: BrowserSession? = nil
    ) async throws -> URL { fatalError("stub") }

    /// `func authenticate(using url: URL, callback: ASWebAuthenticationSession.Callback,
    /// preferredBrowserSession: WebAuthenticationSession.BrowserSession? = nil,
    /// additionalHeaderFields: [String : String]) async throws -> URL` (iOS 17.4, macOS 14.4)
    @available(iOS 17.4, macOS 14.4, tvOS 17.4, visionOS 1.1, watchOS 10.4, *)
    public func authenticate(
        using url: URL,
        callback: ASWebAuthenticationSession.Callback,
        preferredBrowserSession: BrowserSession? = nil,
        additionalHeaderFields: [String: String]
    ) async throws -> URL { fatalError("stub") }
}

@available(iOS 16.4, macOS 13.3, tvOS 16.4, visionOS 1.0, watchOS 9.4, *)
extension EnvironmentValues {
    /// `var webAuthenticationSession: WebAuthenticationSession { get }`
    public var webAuthenticationSession: WebAuthenticationSession { fatalError("stub") }
}
