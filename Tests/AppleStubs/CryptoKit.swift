// swift-format-ignore-file
// (An interface transcribed from Apple's documentation, kept in its spelling.)
// Interface stub of the CryptoKit framework's P-256 signing keys, in software and in the Secure
// Enclave, for type-checking on Linux. Never shipped or run. Availability from the pages of
// P256.Signing.PrivateKey (iOS 13, Mac Catalyst 13, macOS 10.15, tvOS 13, visionOS 1, watchOS 6),
// SecureEnclave.P256.Signing.PrivateKey (the same), and its initializers
// init(compactRepresentable:accessControl:authenticationContext:) and
// init(dataRepresentation:authenticationContext:) (iOS 13, Mac Catalyst 13, macOS 10.15,
// visionOS 1, watchOS 9; not tvOS). The key types are not declared Sendable here: Bearer's code
// must not rely on it.
import Foundation
import Security
#if canImport(LocalAuthentication)
import LocalAuthentication
#endif

@available(iOS 13.0, macCatalyst 13.0, macOS 10.15, tvOS 13.0, visionOS 1.0, watchOS 6.0, *)
public enum P256 {
    public enum Signing {
        public struct PrivateKey {
            public init(compactRepresentable: Bool = true) { fatalError("stub") }
            public init<D>(rawRepresentation data: D) throws where D: ContiguousBytes { fatalError("stub") }
            public var publicKey: P256.Signing.PublicKey { fatalError("stub") }
            public var rawRepresentation: Data { fatalError("stub") }
            public func signature<D>(for data: D) throws -> P256.Signing.ECDSASignature where D: DataProtocol {
                fatalError("stub")
            }
        }

        public struct PublicKey {
            public init<Bytes>(x963Representation: Bytes) throws where Bytes: ContiguousBytes { fatalError("stub") }
            public var x963Representation: Data { fatalError("stub") }
            public func isValidSignature<D>(_ signature: P256.Signing.ECDSASignature, for data: D) -> Bool
            where D: DataProtocol { fatalError("stub") }
        }

        public struct ECDSASignature {
            public init<D>(rawRepresentation: D) throws where D: DataProtocol { fatalError("stub") }
            public var rawRepresentation: Data { fatalError("stub") }
        }
    }
}

@available(iOS 13.0, macCatalyst 13.0, macOS 10.15, tvOS 13.0, visionOS 1.0, watchOS 6.0, *)
public enum SecureEnclave {
    public static var isAvailable: Bool { fatalError("stub") }

    public enum P256 {
        public enum Signing {
            public struct PrivateKey {
                #if canImport(LocalAuthentication)
                @available(iOS 13.0, macCatalyst 13.0, macOS 10.15, visionOS 1.0, watchOS 9.0, *)
                @available(tvOS, unavailable)
                public init(
                    compactRepresentable: Bool = true,
                    accessControl: SecAccessControl = { () -> SecAccessControl in fatalError("stub") }(),
                    authenticationContext: LAContext? = nil
                ) throws { fatalError("stub") }

                @available(iOS 13.0, macCatalyst 13.0, macOS 10.15, visionOS 1.0, watchOS 9.0, *)
                @available(tvOS, unavailable)
                public init(dataRepresentation: Data, authenticationContext: LAContext? = nil) throws {
                    fatalError("stub")
                }
                #endif

                public var publicKey: CryptoKit.P256.Signing.PublicKey { fatalError("stub") }
                public var dataRepresentation: Data { fatalError("stub") }
                public func signature<D>(for data: D) throws -> CryptoKit.P256.Signing.ECDSASignature
                where D: DataProtocol { fatalError("stub") }
            }
        }
    }
}
