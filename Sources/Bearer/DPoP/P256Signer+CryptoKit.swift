#if canImport(CryptoKit)
    import BearerCore
    import CryptoKit
    import Foundation

    /// A P-256 key in CryptoKit: CryptoKit makes it, checks it and signs with it.
    final class P256Signer: @unchecked Sendable {
        // Unchecked: the key is a value set once and only read, which CryptoKit allows from any thread.
        private let key: P256.Signing.PrivateKey
        /// The private scalar, 32 bytes, for the session's record.
        let privateScalar: [UInt8]
        /// The public key.
        let publicKey: DPoPPublicKey

        private init(key: P256.Signing.PrivateKey) throws {
            self.key = key
            self.privateScalar = Array(key.rawRepresentation)
            self.publicKey = try DPoPPublicKey(uncompressedPoint: key.publicKey.x963Representation)
        }

        /// A new key.
        static func generate() throws -> P256Signer {
            try P256Signer(key: P256.Signing.PrivateKey())
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
