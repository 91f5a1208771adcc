#if canImport(CryptoKit)
    @_spi(Bridge) import BearerCore
    import CryptoKit
    import Foundation
    import Security

    /// A public key imported into the platform: CryptoKit's for P-256, the Security framework's for
    /// RSA, which check signatures with it.
    final class VerifyingKey: @unchecked Sendable {
        // Unchecked: the keys are set once and only read; CryptoKit's key is a value, and a
        // SecKey may be used from any thread.

        /// How an RSA signature is padded.
        enum Padding: Sendable {
            /// RSASSA-PKCS1-v1_5 (RS256).
            case pkcs1
            /// RSASSA-PSS with MGF1-SHA-256 and a 32-byte salt (PS256).
            case pss
        }

        private enum Key {
            case p256(P256.Signing.PublicKey)
            case rsa(SecKey)
        }

        private let key: Key

        /// Imports `material`.
        ///
        /// - Throws: ``BearerError/Kind/invalidSignature`` when the platform refuses it.
        init(_ material: JSONWebKey.Material) throws {
            switch material {
            case .p256(let x, let y):
                do {
                    key = .p256(try P256.Signing.PublicKey(x963Representation: [4] + x + y))
                } catch {
                    throw BearerError.invalidSignature(
                        "CryptoKit refused the server's P-256 public key.", underlyingError: error)
                }
            case .rsa(let modulus, let exponent):
                let der = JSONWebKey.rsaPublicKeyDER(modulus: modulus, exponent: exponent)
                let attributes: [CFString: Any] = [
                    kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: kSecAttrKeyClassPublic,
                ]
                var error: Unmanaged<CFError>?
                guard let rsa = SecKeyCreateWithData(Data(der) as CFData, attributes as CFDictionary, &error) else {
                    throw BearerError.invalidSignature(
                        "The Security framework refused the server's RSA public key.",
                        underlyingError: error?.takeRetainedValue())
                }
                key = .rsa(rsa)
            }
        }

        /// Whether `signature` is this key's over `message` with SHA-256: ECDSA (`r‖s`) for a
        /// P-256 key, else RSA with `padding`.
        func isValidSignature(_ signature: [UInt8], of message: [UInt8], padding: Padding?) throws -> Bool {
            switch key {
            case .p256(let publicKey):
                guard let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
                return publicKey.isValidSignature(ecdsa, for: message)
            case .rsa(let rsa):
                let algorithm: SecKeyAlgorithm =
                    padding == .pss ? .rsaSignatureMessagePSSSHA256 : .rsaSignatureMessagePKCS1v15SHA256
                var error: Unmanaged<CFError>?
                let valid = SecKeyVerifySignature(
                    rsa, algorithm, Data(message) as CFData, Data(signature) as CFData, &error)
                // A wrong signature is reported through `error` too; either way it is not valid.
                error?.release()
                return valid
            }
        }
    }
#endif
