// libFuzzer target: compact JWS tokens (RFC 7515 §7.1), their protected headers and payloads, and
// the platform's signature checks with RFC 7515's example keys.
import Bearer
import Foundation

@_spi(Testing) @testable import BearerCore

/// RFC 7515 §A.2's RSA key and §A.3's P-256 key, which the checks run with.
let exampleKeys: [JSONWebKey] = {
    let parts: [String] = [
        #"{"keys":[{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","#,
        #""y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"},{"kty":"RSA","e":"AQAB","n":"ofgWCuLjybRlzo0tZWJjNiuSf"#,
        #"b4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6"#,
        #"b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4u"#,
        #"DZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ"}]}"#,
    ]
    return (try? JSONWebKeySet(json: Data(parts.joined().utf8)))?.keys ?? []
}()

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    // Both example keys must load, or the signature checks below would never run.
    guard exampleKeys.count == 2 else { fatalError("the example keys did not load") }
    MemoryBudget.check(inputSize: count) {
        let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
        guard let token = try? CompactJWS(text) else { return }
        _ = try? token.payloadObject()
        let algorithm = token.header.algorithm
        for key in exampleKeys where key.fits(algorithm) {
            _ = try? PlatformSignatureVerifier().isValidSignature(
                token.signature, of: token.signingInput, by: algorithm, with: key)
        }
    }
    return 0
}
