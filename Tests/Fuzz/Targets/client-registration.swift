// libFuzzer target: a dynamic client registration's answer (RFC 7591 §3.2), read as for a public
// client and as for a private_key_jwt client that registered its key set.
import Foundation

@testable import BearerCore

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    MemoryBudget.check(inputSize: count) {
        let answer = Data(UnsafeRawBufferPointer(start: start, count: count))
        guard let redirect = URL(string: "http://127.0.0.1:53682/callback") else { return }
        for asked in [false, true] {
            _ = try? ClientRegistration.client(from: answer, redirectURI: redirect, askedForAssertions: asked)
        }
    }
    return 0
}
