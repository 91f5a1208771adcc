#if !canImport(CryptoKit) && canImport(CLibCrypto)
    @_spi(Internals) import BearerCore
    import CLibCrypto

    /// A P-256 key in OpenSSL's libcrypto: libcrypto makes it, checks it and signs with it. Its
    /// mirror is empty, so `dump` shows nothing of the key.
    final class P256Signer: Sendable, CustomReflectable {
        /// libcrypto's key; never changed after creation, which libcrypto allows to be used from
        /// several threads at once.
        nonisolated(unsafe) private let key: OpaquePointer
        /// The signing context every signature copies; read under `lock`.
        nonisolated(unsafe) private let template: OpaquePointer
        private let lock = Lock()
        /// The public key.
        let publicKey: DPoPPublicKey

        /// Takes `key`, freeing it if no signing context can be set up for it.
        private init(key: OpaquePointer, publicKey: DPoPPublicKey) throws {
            guard let template = bearer_p256_signing_context(key) else {
                EVP_PKEY_free(key)
                throw Self.failure("could not set up signing with the key")
            }
            self.key = key
            self.template = template
            self.publicKey = publicKey
        }

        var customMirror: Mirror { Mirror(self, children: [:]) }

        deinit {
            EVP_MD_CTX_free(template)
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
            let publicKey: DPoPPublicKey
            do {
                publicKey = try DPoPPublicKey(x: x, y: y)
            } catch {
                EVP_PKEY_free(key)
                throw error
            }
            return (try P256Signer(key: key, publicKey: publicKey), scalar)
        }

        /// The key with private scalar `privateScalar`, refused unless `publicKey` is its own.
        convenience init(privateScalar: [UInt8], publicKey: DPoPPublicKey) throws {
            guard let key = bearer_p256_import(privateScalar, publicKey.uncompressedPoint) else {
                throw Self.failure("refused the saved key: its public key is not its private key's own")
            }
            try self.init(key: key, publicKey: publicKey)
        }

        /// The ES256 signature of `message`, `r‖s`.
        func signature(for message: [UInt8]) throws -> [UInt8] {
            var signature = [UInt8](repeating: 0, count: 64)
            // Copied under the lock, so that no two copies read the template at once; signed apart.
            guard let copy = lock.withLock({ bearer_p256_signing_copy(template) }),
                bearer_p256_sign(copy, message, message.count, &signature) == 1
            else {
                throw Self.failure("could not sign a DPoP proof")
            }
            return signature
        }

        private static func failure(_ what: String) -> BearerError {
            BearerError.proofOfPossession("OpenSSL's libcrypto \(what); nothing was sent and the session was kept.")
        }
    }
#endif
