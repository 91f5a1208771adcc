import BearerCore
// libFuzzer target: JSONParser, Bearer's reader of saved sessions and ID tokens. Whatever it reads,
// Foundation's decoder must read to the same value (except a text with a number like 0e4, which
// Foundation cannot read); whatever it reads must encode and read back.
import Foundation

/// Runs one input; libFuzzer calls it with each generated input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    MemoryBudget.check(inputSize: count) {
        let data = Data(bytes: start, count: count)
        guard let value = try? JSONParser.parse(data) else { return }
        if !hasZeroWithExponent(data) {
            guard let foundation = try? JSONDecoder().decode(JSONValue.self, from: data), foundation == value else {
                fatalError("JSONParser read a text Foundation's decoder reads differently")
            }
        }
        guard let encoded = try? JSONEncoder().encode(value) else { return }  // infinities have no JSON form
        guard (try? JSONParser.parse(encoded)) == value else {
            fatalError("a value JSONParser read does not read back after encoding")
        }
    }
    return 0
}

/// Whether the text has a number like `0e4` (RFC 8259 §6 allows it), which Foundation's decoder
/// cannot read (``JSONValue`` then holds infinity): the one number the two read differently.
func hasZeroWithExponent(_ data: Data) -> Bool {
    let bytes = Array(data)
    return bytes.indices.dropLast().contains { index in
        let isZero = bytes[index] == UInt8(ascii: "0")
        let isExponent = bytes[index + 1] == UInt8(ascii: "e") || bytes[index + 1] == UInt8(ascii: "E")
        let startsNumber = index == 0 || !"0123456789.".utf8.contains(bytes[index - 1])
        return isZero && isExponent && startsNumber
    }
}
