// swift-format-ignore-file
// (An interface transcribed from Apple's documentation, kept in its spelling.)
// Interface stub of the LocalAuthentication framework, for type-checking on Linux. Never shipped
// or run. Only LAContext, which CryptoKit's Secure Enclave keys take as their authentication
// context (developer.apple.com/documentation/localauthentication/lacontext: iOS 8, Mac Catalyst
// 13.1, macOS 10.10, visionOS 1, watchOS 3; not tvOS).
import Foundation

@available(iOS 8.0, macCatalyst 13.1, macOS 10.10, visionOS 1.0, watchOS 3.0, *)
@available(tvOS, unavailable)
open class LAContext: NSObject {
    public override init() { fatalError("stub") }
}
