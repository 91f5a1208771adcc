#if !canImport(CryptoKit) && canImport(CLibCrypto)
    import BearerCore
    import CLibCrypto

    /// A P-256 key in OpenSSL's libcrypto: libcrypto makes it, checks it and signs with it. Its
    /// mirror is empty, so `dump` shows nothing of the key.
    final class P256Signer: Sendable, CustomReflectable {
        /// libcrypto's key; never changed after creation, which libcrypto allows to be used from
        /// several threads at once.
        nonisolated(unsafe) private let key: OpaquePointer
        /// The public key.
        let publicKey: DPoPPublicKey

        private init(key: OpaquePointer, publicKey: DPoPPublicKey) {
            self.key = key
            self.publicKey = publicKey
        }

        var customMirror: Mirror { Mirror(self, children: [:]) }

        deinit {
            EVP_PKEY_free(key)
        }

        /// A new key, and its private scalar (32 bytes) for the session's record.
        static func generate() throws -> (signer: P256Signer, privateScalar: [UInt8]) {
            guard let key = bearer_p256_generate() else { throw failure("could not make a P-256 key") }
            var scalar = [UInt8](repeating: 0, count: 32)
            var x = [UInt8](repeating: 0, count: 32)
            var y = [UInt8](repeating: 0, count: 32)
            guard bearer_p256_export(key, &scalar, &x, &y) == 1 else {
                EVP_PKEY_free(key)
                throw failure("could not read the new P-256 key")
            }
            return (P256Signer(key: key, publicKey: try DPoPPublicKey(x: x, y: y)), scalar)
        }

        /// The key with private scalar `privateScalar`, refused unless `publicKey` is its own.
        convenience init(privateScalar: [UInt8], publicKey: DPoPPublicKey) throws {
            guard let key = bearer_p256_import(privateScalar, publicKey.uncompressedPoint) else {
                throw Self.failure("refused the saved key: its public key is not its private key's own")
            }
            self.init(key: key, publicKey: publicKey)
        }

        /// The ES256 signature of `message`, `r‖s`.
        func signature(for message: [UInt8]) throws -> [UInt8] {
            var signature = [UInt8](repeating: 0, count: 64)
            guard bearer_p256_sign(key, message, message.count, &signature) == 1 else {
                throw Self.failure("could not sign a DPoP proof")
            }
            return signature
        }

        private static func failure(_ what: String) -> BearerError {
            BearerError.proofOfPossession("OpenSSL's libcrypto \(what); nothing was sent and the session was kept.")
        }
    }
#endif
