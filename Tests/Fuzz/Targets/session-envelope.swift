// libFuzzer target: Bearer's saved-session envelope; whatever decodes must encode and decode to itself.
import Bearer
import Foundation

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    MemoryBudget.check(inputSize: count) {
        guard let state = try? AuthState(encoded: Data(bytes: start, count: count)) else { return }
        guard let data = try? state.encoded(), let again = try? AuthState(encoded: data), again == state else {
            fatalError("a decoded session does not survive encoding")
        }
    }
    return 0
}
