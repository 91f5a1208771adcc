import BearerCore

#if canImport(CryptoKit)
    import CryptoKit
    import Foundation
#endif

/// A P-256 DPoP key kept in the Secure Enclave: its record holds only the enclave's encrypted
/// reference to it (`dataRepresentation`), which only this device's enclave can use.
struct SecureEnclaveDPoPKey: DPoPKey {
    /// The record kind.
    static let kind = "secure-enclave"

    let record: DPoPKeyRecord

    #if canImport(CryptoKit) && !os(tvOS)
        /// The enclave's key.
        private let key: EnclaveKey

        private init(key: SecureEnclave.P256.Signing.PrivateKey) throws {
            self.key = EnclaveKey(key)
            self.record = DPoPKeyRecord(
                kind: Self.kind,
                privateKey: DPoPKeyMaterial(bytes: key.dataRepresentation),
                publicKey: try DPoPPublicKey(uncompressedPoint: key.publicKey.x963Representation))
        }

        /// A new enclave key, or `nil` on a device without a Secure Enclave.
        static func makeIfAvailable() throws -> SecureEnclaveDPoPKey? {
            guard SecureEnclave.isAvailable else { return nil }
            do {
                return try SecureEnclaveDPoPKey(key: SecureEnclave.P256.Signing.PrivateKey())
            } catch {
                throw BearerError.proofOfPossession(
                    "The Secure Enclave could not make a DPoP key; nothing was sent.", underlyingError: error)
            }
        }

        /// The enclave key `record` refers to.
        init(record: DPoPKeyRecord) throws {
            guard let reference = record.privateKey.bytes else {
                throw BearerError.proofOfPossession(
                    "The session's Secure Enclave key reference is unreadable; the session was kept.")
            }
            let key: SecureEnclave.P256.Signing.PrivateKey
            do {
                key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: Data(reference))
            } catch {
                throw BearerError.proofOfPossession(
                    "This device's Secure Enclave cannot use the session's DPoP key (it was made on another "
                        + "device, or the device was reset); the session was kept. Sign in again on this device.",
                    underlyingError: error)
            }
            try self.init(key: key)
            guard self.record.publicKey == record.publicKey else {
                throw BearerError.proofOfPossession(
                    "The Secure Enclave key is not the session's; nothing was sent and the session was kept.")
            }
        }

        func signature(for message: [UInt8]) async throws -> [UInt8] {
            Array(try key.key.signature(for: Data(message)).rawRepresentation)
        }

        /// The enclave's key, set once and only read.
        private final class EnclaveKey: @unchecked Sendable {
            // Unchecked: the key is a value set once and only read, which CryptoKit allows from any thread.
            let key: SecureEnclave.P256.Signing.PrivateKey
            init(_ key: SecureEnclave.P256.Signing.PrivateKey) { self.key = key }
        }
    #else
        /// `nil`: this platform has no Secure Enclave.
        static func makeIfAvailable() throws -> SecureEnclaveDPoPKey? { nil }

        /// Refuses: this platform has no Secure Enclave.
        init(record: DPoPKeyRecord) throws {
            throw BearerError.proofOfPossession(
                "The session's DPoP key lives in an Apple device's Secure Enclave, which this platform has not; "
                    + "the session was kept. Use it on the device that signed in, or sign in again here.")
        }

        func signature(for message: [UInt8]) async throws -> [UInt8] {
            throw BearerError.proofOfPossession("This platform has no Secure Enclave.")
        }
    #endif
}
