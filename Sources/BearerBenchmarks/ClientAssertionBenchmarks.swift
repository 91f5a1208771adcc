import Bearer
@_spi(Benchmarks) import BearerCore
import Foundation

#if canImport(CLibCrypto)
    import CLibCrypto
#endif

/// A `private_key_jwt` client assertion (RFC 7523 §2.2) made by the platform's key, against
/// libcrypto's bare ES256 signature of the same bytes, in the same run.
enum ClientAssertionBenchmarks {
    static func assertion(repeats: Int) async throws -> Figure {
        #if canImport(CLibCrypto)
            let count = 5000
            let key = try await PlatformDPoPKeys().makeKey()
            guard let issuer = URL(string: "https://auth.example.com"),
                let endpoint = URL(string: "https://auth.example.com/token")
            else { throw BenchmarkFailure("bad URL") }
            let server = AuthorizationServer(issuer: issuer, authorizationEndpoint: endpoint, tokenEndpoint: endpoint)
            let client = Client(id: "bench-client", authentication: .privateKeyJWT)
            // The bytes an assertion signs: all of it but the signature.
            let sample = try await ClientAssertion.signed(by: client, for: server, with: key, at: Date())
            let message = Array(sample.split(separator: ".").prefix(2).joined(separator: ".").utf8)
            guard let bare = bearer_p256_generate() else { throw BenchmarkFailure("libcrypto made no key") }
            defer { EVP_PKEY_free(bare) }
            var assertions: [Double] = []
            var signatures: [Double] = []
            var sink = 0
            for _ in 0..<repeats {
                assertions.append(
                    try await Measure.seconds {
                        for _ in 0..<count {
                            let assertion = try await ClientAssertion.signed(
                                by: client, for: server, with: key, at: Date())
                            sink &+= assertion.utf8.count
                        }
                    })
                signatures.append(try await DPoPBenchmarks.bareSignatures(of: message, by: bare, count: count))
            }
            guard sink != 0 else { throw BenchmarkFailure("nothing was signed") }
            let assertion = Measure.median(assertions) / Double(count) * 1e6
            let signature = Measure.median(signatures) / Double(count) * 1e6
            return Figure(
                name: "private_key_jwt client assertion (ES256, libcrypto)", value: assertion, unit: "µs",
                baseline: signature, baselineName: "EVP_DigestSign ES256 of the same bytes (µs)",
                ratio: assertion / signature, target: "≤ 1.5× the baseline", meetsTarget: assertion / signature <= 1.5)
        #else
            throw BenchmarkFailure("the assertion benchmark compares with libcrypto, which this platform does not link")
        #endif
    }
}
