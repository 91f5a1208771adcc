// libFuzzer target: the bearer tool's client key file (a private P-256 JWK), as `bearer login
// --client-key-file` and every later refresh read it; a key that parses is rebuilt by the platform.
import Foundation

@testable import BearerCommandLine

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    MemoryBudget.check(inputSize: count) {
        _ = try? ClientKeyFile.key(in: Data(UnsafeRawBufferPointer(start: start, count: count)), named: "fuzz.json")
    }
    return 0
}
