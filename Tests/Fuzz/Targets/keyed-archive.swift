// libFuzzer target: GTMAppAuth keyed archives (binary property list + NSKeyedArchiver graph).
import BearerMigration
import Foundation

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    MemoryBudget.check(inputSize: count) {
        let data = Data(bytes: start, count: count)
        if let state = try? GTMAppAuthArchive.decode(data) {
            _ = try? GTMAppAuthArchive.decode(GTMAppAuthArchive.encode(state))
        }
    }
    return 0
}
