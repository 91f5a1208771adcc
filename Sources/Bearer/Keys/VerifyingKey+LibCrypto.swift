#if !canImport(CryptoKit) && canImport(CLibCrypto)
    import BearerCore
    import CLibCrypto

    /// A public key imported into OpenSSL's libcrypto, which checks signatures with it.
    final class VerifyingKey: Sendable {
        /// How an RSA signature is padded.
        enum Padding: Sendable {
            /// RSASSA-PKCS1-v1_5 (RS256).
            case pkcs1
            /// RSASSA-PSS with MGF1-SHA-256 and a 32-byte salt (PS256).
            case pss
        }

        /// libcrypto's key; never changed after creation, which libcrypto allows to be used from
        /// several threads at once.
        nonisolated(unsafe) private let key: OpaquePointer

        /// Imports `material`.
        ///
        /// - Throws: ``BearerError/Kind/invalidSignature`` when libcrypto refuses it.
        init(_ material: JSONWebKey.Material) throws {
            let imported: OpaquePointer?
            switch material {
            case .p256(let x, let y):
                imported = bearer_p256_public_key([4] + x + y)
            case .rsa(let modulus, let exponent):
                imported = bearer_rsa_public_key(modulus, modulus.count, exponent, exponent.count)
            }
            guard let imported else {
                throw BearerError.invalidSignature("OpenSSL's libcrypto refused the server's public key.")
            }
            key = imported
        }

        deinit {
            EVP_PKEY_free(key)
        }

        /// Whether `signature` is this key's over `message` with SHA-256: ECDSA (`r‖s`) for an EC
        /// key, else RSA with `padding`.
        func isValidSignature(_ signature: [UInt8], of message: [UInt8], padding: Padding?) throws -> Bool {
            var checked = signature
            if padding == nil {
                var der = [UInt8](repeating: 0, count: 80)
                var length = der.count
                guard bearer_p256_der_signature(signature, &der, &length) == 1 else { return false }
                checked = Array(der[..<length])
            }
            switch bearer_verify(key, padding == .pss ? 1 : 0, message, message.count, checked, checked.count) {
            case 1: return true
            case 0: return false
            default: throw BearerError.invalidSignature("OpenSSL's libcrypto could not check the signature.")
            }
        }
    }
#endif
