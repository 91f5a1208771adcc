// swift-format-ignore-file
// (An interface transcribed from Apple's documentation, kept in its spelling.)
// Interface stub of UIKit, for type-checking on Linux. Never shipped or run. The module exists on
// iOS, iPadOS, Mac Catalyst, tvOS, visionOS and watchOS, but views and windows are not on watchOS.
import Foundation

/// developer.apple.com/documentation/uikit/uiview — `@MainActor class UIView`
/// (iOS 2, Mac Catalyst 13.1, tvOS 9, visionOS 1; not watchOS).
@available(iOS 2.0, macCatalyst 13.1, tvOS 9.0, visionOS 1.0, *)
@available(macOS, unavailable) @available(watchOS, unavailable)
@MainActor open class UIView: NSObject {
    /// `var window: UIWindow? { get }`
    open var window: UIWindow? { fatalError("stub") }
}

/// developer.apple.com/documentation/uikit/uiwindow — `@MainActor class UIWindow : UIView`
/// (iOS 2, Mac Catalyst 13.1, tvOS 9, visionOS 1; not watchOS).
@available(iOS 2.0, macCatalyst 13.1, tvOS 9.0, visionOS 1.0, *)
@available(macOS, unavailable) @available(watchOS, unavailable)
@MainActor open class UIWindow: UIView {}

/// developer.apple.com/documentation/uikit/uiviewcontroller — `@MainActor class UIViewController`
/// (iOS 2, Mac Catalyst 13.1, tvOS 9, visionOS 1; not watchOS).
@available(iOS 2.0, macCatalyst 13.1, tvOS 9.0, visionOS 1.0, *)
@available(macOS, unavailable) @available(watchOS, unavailable)
@MainActor open class UIViewController: NSObject {
    /// `var view: UIView! { get set }`
    open var view: UIView! {
        get { fatalError("stub") }
        set { fatalError("stub") }
    }
}
