#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What the device flow reports while the user signs in on another device, as values a UI can
/// show (RFC 8628 §3.3).
public enum DeviceSignInProgress: Sendable, Hashable {
    /// Show the user where to go and the code to enter.
    case codeIssued(DeviceVerification)
    /// Still waiting for the user; the code expires in `secondsLeft`.
    case waiting(secondsLeft: TimeInterval)
    /// The server asked to poll more slowly (`slow_down`, RFC 8628 §3.5); polls are now
    /// `interval` seconds apart.
    case slowedDown(interval: TimeInterval)
}

/// Where the user signs in and the code to enter there (RFC 8628 §3.2); it holds no secret.
public struct DeviceVerification: Sendable, Hashable {
    /// The code the user types.
    public let userCode: String
    /// Where the user goes; https (or loopback http when the server allows it).
    public let verificationURI: URL
    /// An address that carries the code too, for a QR code or a link, when the server gives one.
    public let verificationURIComplete: URL?
    /// When the code expires.
    public let expiresAt: Date
    /// How many seconds apart Bearer polls for the user's approval: what the server asked, kept
    /// between 1 and 60 (5 when it did not say); a `slow_down` lengthens it by 5
    /// (``DeviceSignInProgress/slowedDown(interval:)``).
    public let interval: TimeInterval
}

extension DeviceAuthorization {
    /// Where the user signs in and the code to enter, without the device code.
    var verification: DeviceVerification {
        DeviceVerification(
            userCode: userCode,
            verificationURI: verificationURI,
            verificationURIComplete: verificationURIComplete,
            expiresAt: expiresAt,
            interval: interval
        )
    }
}
