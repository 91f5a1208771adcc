// libFuzzer target: what servers send a DPoP client: DPoP challenges and nonces, use_dpop_nonce
// bodies, access tokens whose cnf.jkt is read, and the saved key's JWK.
import Bearer
import Foundation

@testable import BearerCore

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(UnsafeRawBufferPointer(start: start, count: count))
    let text = String(decoding: data, as: UTF8.self)
    _ = BearerChallenge(header: text, scheme: "DPoP")?.error
    _ = DPoPMemory.isValid(text)
    _ = DPoPProver.asksForNonce(TransportResponse(status: 400, body: data))
    _ = DPoPProver.asksForNonce(TransportResponse(status: 401, headerFields: ["WWW-Authenticate": text]))
    _ = AuthState.confirmationThumbprint(of: AccessToken(text))
    _ = try? JSONDecoder().decode(DPoPKeyRecord.self, from: data).thumbprint
    return 0
}
