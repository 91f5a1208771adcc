import Bearer
@_spi(Benchmarks) import BearerCore
import Foundation

#if canImport(CLibCrypto)
    import CLibCrypto
#endif

/// The cost of checking an ID token's signature once the server's keys are kept: Bearer's whole
/// check (token split, header and algorithm checks, the kept key set, the platform's
/// verification) against libcrypto's bare verification (`EVP_DigestVerify`) of the same bytes with a
/// key already imported, in the same run.
enum IDTokenBenchmarks {
    /// Answers the key set's GET with `keySet`, as the server's `jwks_uri` would.
    struct KeySetServer: HTTPTransport {
        let keySet: String

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            TransportResponse(status: 200, headerFields: ["Cache-Control": "max-age=3600"], body: Data(keySet.utf8))
        }
    }

    static func verification(repeats: Int) async throws -> Figure {
        #if canImport(CLibCrypto)
            let count = 5000
            guard let key = bearer_p256_generate() else { throw BenchmarkFailure("libcrypto made no key") }
            defer { EVP_PKEY_free(key) }
            var scalar = [UInt8](repeating: 0, count: 32)
            var x = [UInt8](repeating: 0, count: 32)
            var y = [UInt8](repeating: 0, count: 32)
            guard bearer_p256_export(key, &scalar, &x, &y) == 1 else { throw BenchmarkFailure("no key exported") }
            let issuer = "https://auth.example.com"
            let claims =
                #"{"iss":"\#(issuer)","sub":"user-1","aud":"client-1","iat":1800000000,"exp":1800003600,"#
                + #""email":"user@example.com","nonce":"n-0123456789"}"#
            let signingInput = Array(
                (Base64URL.encode(Array(#"{"alg":"ES256","kid":"k1","typ":"JWT"}"#.utf8)) + "."
                    + Base64URL.encode(Array(claims.utf8))).utf8)
            var der = [UInt8](repeating: 0, count: 80)
            var derLength = der.count
            var raw = [UInt8](repeating: 0, count: 64)
            guard bearer_p256_sign_der(key, signingInput, signingInput.count, &der, &derLength) == 1,
                bearer_p256_raw_signature(der, derLength, &raw) == 1
            else { throw BenchmarkFailure("libcrypto did not sign") }
            der = Array(der.prefix(derLength))
            let token = try IDToken(String(decoding: signingInput, as: UTF8.self) + "." + Base64URL.encode(raw))
            let jwk =
                #"{"kty":"EC","crv":"P-256","kid":"k1","use":"sig","x":"\#(Base64URL.encode(x))","#
                + #""y":"\#(Base64URL.encode(y))"}"#
            guard let issuerURL = URL(string: issuer), let keysURL = URL(string: issuer + "/jwks") else {
                throw BenchmarkFailure("bad issuer URL")
            }
            var server = AuthorizationServer(
                issuer: issuerURL, authorizationEndpoint: issuerURL.appendingPathComponent("authorize"),
                tokenEndpoint: issuerURL.appendingPathComponent("token"))
            server.jwksURI = keysURL
            let transport = KeySetServer(keySet: #"{"keys":[\#(jwk)]}"#)
            let settings = IDTokenSignatureSettings(requirement: .required, verifier: PlatformSignatureVerifier())
            // The first check fetches and keeps the keys; the measured ones find them kept.
            try await settings.checkSignature(of: token, from: server, transport: transport)

            var checks: [Double] = []
            var bare: [Double] = []
            var sink = 0
            for _ in 0..<repeats {
                checks.append(
                    try await Measure.seconds {
                        for _ in 0..<count {
                            try await settings.checkSignature(of: token, from: server, transport: transport)
                            sink &+= 1
                        }
                    })
                bare.append(
                    try await Measure.seconds {
                        for _ in 0..<count {
                            guard bearer_verify(key, 0, signingInput, signingInput.count, der, der.count) == 1 else {
                                throw BenchmarkFailure("libcrypto did not verify")
                            }
                            sink &+= 1
                        }
                    })
            }
            guard sink == 2 * count * repeats else { throw BenchmarkFailure("not every check ran") }
            let check = Measure.median(checks) / Double(count) * 1e6
            let baseline = Measure.median(bare) / Double(count) * 1e6
            return Figure(
                name: "ID-token signature check, keys kept (ES256, libcrypto)",
                value: check,
                unit: "µs",
                baseline: baseline,
                baselineName: "EVP_DigestVerify ES256 of the same bytes, key imported (µs)",
                ratio: check / baseline,
                target: "≤ 1.5× the baseline",
                meetsTarget: check / baseline <= 1.5
            )
        #else
            throw BenchmarkFailure("the ID-token benchmark compares with libcrypto, which this platform does not link")
        #endif
    }
}
