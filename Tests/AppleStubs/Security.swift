// swift-format-ignore-file
// (An interface transcribed from Apple's documentation, kept in its spelling.)
// Interface stub of the Security framework's keychain items API, for type-checking on Linux.
// Never shipped or run. On Apple platforms the CF types bridge to Foundation's; here they are
// the Foundation classes themselves, which gives the same `as CFDictionary` and `as? Data` casts.
// Availability: kSecAttrAccessible, kSecUseDataProtectionKeychain and SecCopyErrorMessageString as
// their pages give it; the other keychain-item declarations date from the first SDK of each
// platform (iOS 2, macOS 10.6 for SecItem, tvOS 9, watchOS 2), older than any deployment target.
// The SecItem calls are C functions, whose results Swift lets a caller discard (@discardableResult).
import Foundation

@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
public typealias OSStatus = Int32
// An opaque CF type (developer.apple.com/documentation/security/secaccesscontrol: iOS 8, Mac
// Catalyst 13.1, macOS 10.10, tvOS 9, visionOS 1, watchOS 2). Apps get one from
// SecAccessControlCreateWithFlags; here it is only the type of CryptoKit's parameter.
@available(iOS 8.0, macCatalyst 13.1, macOS 10.10, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
public final class SecAccessControl {}
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
public typealias CFTypeRef = AnyObject
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
public typealias CFDictionary = NSDictionary
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
public typealias CFString = NSString
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
public typealias CFBoolean = NSNumber

/// developer.apple.com/documentation/security/errsecsuccess and siblings (Security Framework Result Codes).
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
public let errSecSuccess: OSStatus = 0
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
public let errSecItemNotFound: OSStatus = -25300
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
public let errSecDuplicateItem: OSStatus = -25299
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
public let errSecInteractionNotAllowed: OSStatus = -25308
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
public let errSecMissingEntitlement: OSStatus = -34018

/// Item class, attribute, search and return keys (developer.apple.com/documentation/security/keychain-items).
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecClass: CFString = "class"
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrService: CFString = "svce"
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = "agrp"
@available(iOS 4.0, macCatalyst 13.1, macOS 10.9, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn"
@available(iOS 4.0, macCatalyst 13.1, macOS 10.9, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
@available(iOS 7.0, macCatalyst 13.1, macOS 10.9, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrSynchronizable: CFString = "sync"
@available(iOS 13.0, macCatalyst 13.1, macOS 10.15, tvOS 13.0, visionOS 1.0, watchOS 6.0, *)
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg"
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecReturnAttributes: CFString = "r_Attributes"
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = "m_LimitAll"

/// `func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus`
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
@discardableResult public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { fatalError("stub") }

/// `func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus`
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
@discardableResult public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus { fatalError("stub") }

/// `func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus`
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
@discardableResult public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus { fatalError("stub") }

/// `func SecItemDelete(_ query: CFDictionary) -> OSStatus`
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
@discardableResult public func SecItemDelete(_ query: CFDictionary) -> OSStatus { fatalError("stub") }

/// `func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString?`
@available(iOS 11.3, macCatalyst 13.1, macOS 10.3, tvOS 11.3, visionOS 1.0, watchOS 4.3, *)
@discardableResult public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? { fatalError("stub") }

// Public keys made from data and signatures checked with them (developer.apple.com/documentation/
// security/seckeycreatewithdata(_:_:_:), seckeyverifysignature(_:_:_:_:_:) and seckeyalgorithm):
// SecKey is the opaque CF class of a key; the functions date from iOS 10, macOS 10.12, tvOS 10,
// watchOS 3; PKCS #1 v1.5 with SHA-256 from the same, PSS with SHA-256 (MGF1-SHA-256, a 32-byte
// salt per SecKey.h) from iOS 11, macOS 10.13, tvOS 11, watchOS 4. The key attribute names date
// from iOS 2, macOS 10.6 (kSecAttrKeyType, kSecAttrKeyClass) and 10.7 (their RSA and public values).
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
public typealias CFData = NSData
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
public typealias CFError = NSError
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
public class SecKey {}

@available(iOS 10.0, macCatalyst 13.1, macOS 10.12, tvOS 10.0, visionOS 1.0, watchOS 3.0, *)
public struct SecKeyAlgorithm: RawRepresentable, Hashable, @unchecked Sendable {
    public let rawValue: CFString
    public init(_ rawValue: CFString) { self.rawValue = rawValue }
    public init(rawValue: CFString) { self.rawValue = rawValue }
    @available(iOS 10.0, macCatalyst 13.1, macOS 10.12, tvOS 10.0, visionOS 1.0, watchOS 3.0, *)
    public static let rsaSignatureMessagePKCS1v15SHA256 = SecKeyAlgorithm("algid:sign:RSA:message-PKCS1v15:SHA256")
    @available(iOS 11.0, macCatalyst 13.1, macOS 10.13, tvOS 11.0, visionOS 1.0, watchOS 4.0, *)
    public static let rsaSignatureMessagePSSSHA256 = SecKeyAlgorithm("algid:sign:RSA:message-PSS:SHA256")
}

@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrKeyType: CFString = "type"
@available(iOS 2.0, macCatalyst 13.1, macOS 10.6, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrKeyClass: CFString = "kcls"
@available(iOS 2.0, macCatalyst 13.1, macOS 10.7, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrKeyTypeRSA: CFString = "42"
@available(iOS 2.0, macCatalyst 13.1, macOS 10.7, tvOS 9.0, visionOS 1.0, watchOS 2.0, *)
nonisolated(unsafe) public let kSecAttrKeyClassPublic: CFString = "0"

/// `func SecKeyCreateWithData(_ keyData: CFData, _ attributes: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey?`
@available(iOS 10.0, macCatalyst 13.1, macOS 10.12, tvOS 10.0, visionOS 1.0, watchOS 3.0, *)
public func SecKeyCreateWithData(_ keyData: CFData, _ attributes: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey? { fatalError("stub") }

/// `func SecKeyVerifySignature(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ signedData: CFData, _ signature: CFData, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> Bool`
@available(iOS 10.0, macCatalyst 13.1, macOS 10.12, tvOS 10.0, visionOS 1.0, watchOS 3.0, *)
public func SecKeyVerifySignature(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ signedData: CFData, _ signature: CFData, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> Bool { fatalError("stub") }
