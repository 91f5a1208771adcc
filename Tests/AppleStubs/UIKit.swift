// swift-format-ignore-file
// (An interface transcribed from Apple's documentation, kept in its spelling.)
// Interface stub of UIKit (iOS flavour only), for type-checking on Linux. Never shipped or run.
import Foundation

/// developer.apple.com/documentation/uikit/uiview — `@MainActor class UIView`.
@MainActor open class UIView: NSObject {
    /// `var window: UIWindow? { get }`
    open var window: UIWindow? { fatalError("stub") }
}

/// developer.apple.com/documentation/uikit/uiwindow — `@MainActor class UIWindow : UIView`.
@MainActor open class UIWindow: UIView {}

/// developer.apple.com/documentation/uikit/uiviewcontroller — `@MainActor class UIViewController`.
@MainActor open class UIViewController: NSObject {
    /// `var view: UIView! { get set }`
    open var view: UIView! { fatalError("stub") }
}
