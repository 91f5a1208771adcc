import Bearer
@_spi(Benchmarks) import BearerCore
import Foundation

#if canImport(CLibCrypto)
    import CLibCrypto
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// DPoP's costs: a proof against a bare libcrypto signature of the same bytes, and a DPoP
/// session's `data(for:)` against a Bearer session's, both against the same local server.
enum DPoPBenchmarks {
    #if canImport(CLibCrypto)
        /// The time of `count` bare libcrypto ES256 signatures of `message` by `key`: the baseline
        /// of every figure that signs.
        static func bareSignatures(of message: [UInt8], by key: OpaquePointer, count: Int) async throws -> Double {
            var signed = 0
            let seconds = try await Measure.seconds {
                var der = [UInt8](repeating: 0, count: 80)
                for _ in 0..<count {
                    var length = der.count
                    guard bearer_p256_sign_der(key, message, message.count, &der, &length) == 1 else {
                        throw BenchmarkFailure("libcrypto did not sign")
                    }
                    signed &+= length
                }
            }
            guard signed > 0 else { throw BenchmarkFailure("nothing was signed") }
            return seconds
        }
    #endif

    /// A resource request's proof (with `ath`) made by the platform's key, against libcrypto's
    /// ES256 signature (`EVP_DigestSign`) of a message of the same length, in the same run.
    static func proof(base: URL, repeats: Int) async throws -> Figure {
        #if canImport(CLibCrypto)
            let count = 5000
            let key = try await PlatformDPoPKeys().makeKey()
            let token = AccessToken("bench-access-token-0123456789")
            let url = base.appendingPathComponent("resource")
            // The bytes a proof signs: all of it but the signature.
            let sample = try await DPoPProof(method: "GET", url: url, accessToken: token, issuedAt: Date())
                .signed(with: key)
            let message =
                Array(sample.utf8.prefix { $0 != UInt8(ascii: ".") }) + [UInt8(ascii: ".")]
                + Array(sample.split(separator: ".")[1].utf8)
            guard let bare = bearer_p256_generate() else { throw BenchmarkFailure("libcrypto made no key") }
            defer { EVP_PKEY_free(bare) }
            var proofs: [Double] = []
            var signatures: [Double] = []
            var sink = 0
            for _ in 0..<repeats {
                proofs.append(
                    try await Measure.seconds {
                        for _ in 0..<count {
                            let proof = try await DPoPProof(
                                method: "GET", url: url, accessToken: token, issuedAt: Date()
                            ).signed(with: key)
                            sink &+= proof.utf8.count
                        }
                    })
                signatures.append(try await DPoPBenchmarks.bareSignatures(of: message, by: bare, count: count))
            }
            guard sink != 0 else { throw BenchmarkFailure("nothing was signed") }
            let proof = Measure.median(proofs) / Double(count) * 1e6
            let signature = Measure.median(signatures) / Double(count) * 1e6
            return Figure(
                name: "DPoP proof for a resource request (ES256, libcrypto)",
                value: proof,
                unit: "µs",
                baseline: signature,
                baselineName: "EVP_DigestSign ES256 of the same bytes (µs)",
                ratio: proof / signature,
                target: "≤ 1.5× the baseline",
                meetsTarget: proof / signature <= 1.5
            )
        #else
            throw BenchmarkFailure("the proof benchmark compares with libcrypto, which this platform does not link")
        #endif
    }

    /// `data(for:)` GETs of a DPoP session against a Bearer session's, to the same local server;
    /// and against a Bearer session's requests that carry a header as long as a proof, which
    /// separates the proof's making from the cost of sending its bytes.
    static func authorizedRequests(base: URL, repeats: Int) async throws -> [Figure] {
        let count = 2000
        let url = base.appendingPathComponent("resource")
        var configuration = AuthSession.Configuration()
        configuration.dpop = DPoPSettings(use: .never, keys: PlatformDPoPKeys())
        var bound = Benchmarks.state(base, expiresAt: Date().addingTimeInterval(3600))
        bound.accessTokenType = .dpop
        bound.dpopKey = try await PlatformDPoPKeys().makeKey().record
        let dpop = try await AuthSession.save(
            bound, to: InMemorySessionStore(), key: "dpop", transport: URLSessionTransport(configuration: .default),
            configuration: configuration)
        let bearer = try await AuthSession.save(
            Benchmarks.state(base, expiresAt: Date().addingTimeInterval(3600)), to: InMemorySessionStore(),
            key: "bearer", transport: URLSessionTransport(configuration: .default))
        let proofLength = try await dpop.authorize(URLRequest(url: url)).value(forHTTPHeaderField: "DPoP")?.utf8.count
        var padded = URLRequest(url: url)
        padded.setValue(String(repeating: "p", count: proofLength ?? 0), forHTTPHeaderField: "X-Padding")
        var times: [[Double]] = [[], [], []]
        for _ in 0..<repeats {
            for (index, (session, request)) in [
                (dpop, URLRequest(url: url)), (bearer, URLRequest(url: url)), (bearer, padded),
            ]
            .enumerated() {
                times[index].append(
                    try await Measure.seconds {
                        for _ in 0..<count {
                            let (_, response) = try await session.data(for: request)
                            guard response.statusCode == 200 else {
                                throw BenchmarkFailure("HTTP \(response.statusCode)")
                            }
                        }
                    })
            }
        }
        let (withProof, without, withPadding) = (
            Measure.median(times[0]) / Double(count) * 1e6, Measure.median(times[1]) / Double(count) * 1e6,
            Measure.median(times[2]) / Double(count) * 1e6
        )
        return [
            Figure(
                name: "data(for:) GET with DPoP",
                value: withProof,
                unit: "µs",
                baseline: without,
                baselineName: "data(for:) GET of a Bearer session (µs)",
                ratio: withProof / without,
                target: "≤ 1.1× the baseline",
                meetsTarget: withProof / without <= 1.1
            ),
            Figure(
                name: "data(for:) GET with DPoP, against a Bearer GET carrying a header as long as the proof",
                value: withProof,
                unit: "µs",
                baseline: withPadding,
                baselineName: "data(for:) GET of a Bearer session with an X-Padding header of the proof's length (µs)",
                ratio: withProof / withPadding,
                target: nil,
                meetsTarget: nil
            ),
        ]
    }
}
