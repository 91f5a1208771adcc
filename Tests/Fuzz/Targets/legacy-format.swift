// libFuzzer target: format detection and every reader behind it (ADC JSON, Bearer's envelope, …).
import Bearer
import BearerMigration
import Foundation

private let client = Client(id: "fuzz", redirectURI: URL(fileURLWithPath: "/"))

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    MemoryBudget.check(inputSize: count) {
        let data = Data(bytes: start, count: count)
        if let format = LegacyFormat.detect(data) {
            _ = try? format.decode(data, client: client)
        }
        _ = try? ApplicationDefaultCredentials.decode(data)
        _ = try? AuthState(encoded: data)
    }
    return 0
}
