// libFuzzer target: JWK Sets (RFC 7517 §5) as a server's jwks_uri serves them, and each usable key
// imported by the platform to check a signature.
import Bearer
import Foundation

@_spi(Testing) @testable import BearerCore

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    MemoryBudget.check(inputSize: count) {
        let data = Data(UnsafeRawBufferPointer(start: start, count: count))
        guard let set = try? JSONWebKeySet(json: data) else { return }
        let message = Array("eyJhbGciOiJFUzI1NiJ9.e30".utf8)
        for algorithm in JWSAlgorithm.verifiable {
            for key in set.candidates(for: algorithm, keyID: set.keys.first?.keyID) {
                // A signature as long as the key's, so that the platform imports the key.
                var length = 64
                if case .rsa(let modulus, _) = key.material { length = modulus.count }
                _ = try? PlatformSignatureVerifier().isValidSignature(
                    Array(repeating: 1, count: length), of: message, by: algorithm, with: key)
            }
        }
    }
    return 0
}
