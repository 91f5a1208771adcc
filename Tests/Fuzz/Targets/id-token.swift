// libFuzzer target: ID tokens (compact JWTs) and their claim checks.
import Bearer
import Foundation

@_spi(Testing) @testable import BearerCore

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    MemoryBudget.check(inputSize: count) {
        let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
        if let token = try? IDToken(text) {
            try? token.validate(
                issuer: "https://accounts.google.com",
                clientID: "fuzz",
                nonce: "n",
                clock: .fixed(Date(timeIntervalSince1970: 1_800_000_000))
            )
        }
        _ = Base64URL.decode(text)
    }
    return 0
}
