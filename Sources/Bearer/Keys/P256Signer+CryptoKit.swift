#if canImport(CryptoKit)
    import BearerCore
    import CryptoKit
    import Foundation

    /// A P-256 key in CryptoKit: CryptoKit makes it, checks it and signs with it. Its mirror is
    /// empty, so `dump` shows nothing of the key.
    final class P256Signer: @unchecked Sendable, CustomReflectable {
        // Unchecked: the key is a value set once and only read, which CryptoKit allows from any thread.
        private let key: P256.Signing.PrivateKey
        /// The public key.
        let publicKey: DPoPPublicKey

        private init(key: P256.Signing.PrivateKey) throws {
            self.key = key
            self.publicKey = try DPoPPublicKey(uncompressedPoint: key.publicKey.x963Representation)
        }

        var customMirror: Mirror { Mirror(self, children: [:]) }

        /// A new key, and its private scalar (32 bytes) for the session's record.
        static func generate() throws -> (signer: P256Signer, privateScalar: [UInt8]) {
            let key = P256.Signing.PrivateKey()
            return (try P256Signer(key: key), Array(key.rawRepresentation))
        }

        /// The key with private scalar `privateScalar`, refused unless `publicKey` is its own.
        convenience init(privateScalar: [UInt8], publicKey: DPoPPublicKey) throws {
            let key: P256.Signing.PrivateKey
            do {
                key = try P256.Signing.PrivateKey(rawRepresentation: privateScalar)
            } catch {
                throw BearerError.proofOfPossession(
                    "CryptoKit refused the saved DPoP key; nothing was sent and the session was kept.",
                    underlyingError: error)
            }
            try self.init(key: key)
            guard self.publicKey == publicKey else {
                throw BearerError.proofOfPossession(
                    "The saved DPoP key's public key is not its private key's own; nothing was sent and the "
                        + "session was kept.")
            }
        }

        /// The ES256 signature of `message`, `r‖s`.
        func signature(for message: [UInt8]) throws -> [UInt8] {
            Array(try key.signature(for: Data(message)).rawRepresentation)
        }
    }
#endif
