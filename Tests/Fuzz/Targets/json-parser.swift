// libFuzzer target: JSONParser, Bearer's reader of saved sessions and ID tokens. Whatever it reads,
// Foundation's decoder must read too, to the same value unless Foundation could not read one of its
// numbers; whatever it reads must encode and read back.
import Foundation

@_spi(Internals) @testable import BearerCore

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    MemoryBudget.check(inputSize: count) {
        let data = Data(bytes: start, count: count)
        guard let value = try? JSONParser.parse(data) else { return }
        guard let foundation = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            fatalError("JSONParser read a text Foundation's decoder refuses")
        }
        // JSONValue holds infinity where Foundation could not read a number: past a Double's range,
        // below it (1e-400, which JSONParser reads as 0) or 0e4 (which RFC 8259 allows).
        guard foundation == value || foundation.holdsInfinity else {
            fatalError("JSONParser read a text Foundation's decoder reads differently")
        }
        guard let encoded = try? JSONEncoder().encode(value) else { return }  // infinities have no JSON form
        guard (try? JSONParser.parse(encoded)) == value else {
            fatalError("a value JSONParser read does not read back after encoding")
        }
    }
    return 0
}

extension JSONValue {
    /// Whether an infinite number is anywhere inside.
    var holdsInfinity: Bool {
        switch self {
        case .number(let number): number.isInfinite
        case .array(let elements): elements.contains { $0.holdsInfinity }
        case .object(let members): members.values.contains { $0.holdsInfinity }
        case .null, .bool, .string: false
        }
    }
}
