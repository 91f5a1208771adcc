// libFuzzer target: OpenID Connect / RFC 8414 metadata documents.
import Bearer
import Foundation

private let issuer = URL(string: "https://accounts.google.com")

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    MemoryBudget.check(inputSize: count) {
        guard let issuer else { return }
        _ = try? AuthorizationServer(metadata: Data(bytes: start, count: count), expectedIssuer: issuer)
    }
    return 0
}
