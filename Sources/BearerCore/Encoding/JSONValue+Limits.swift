extension JSONValue {
    /// The fields of `fields` that fit the limits, taken in name order: a field nested deeper than
    /// `maximumDepth` is dropped, and so is each field whose JSON would take the total past
    /// `maximumBytes`.
    ///
    /// - Parameters:
    ///   - fields: The fields to keep.
    ///   - maximumDepth: The deepest nesting kept; a scalar field has depth 1, each array or
    ///     object around a value adds 1.
    ///   - maximumBytes: How many bytes of JSON the fields kept may take in all.
    /// - Returns: The fields kept.
    static func keeping(
        _ fields: [String: JSONValue],
        maximumDepth: Int,
        maximumBytes: Int
    ) -> [String: JSONValue] {
        var kept: [String: JSONValue] = [:]
        var budget = maximumBytes
        for name in fields.keys.sorted() {
            guard let value = fields[name],
                let size = value.encodedSize(depthLeft: maximumDepth, budget: budget)
            else { continue }
            let total = jsonStringSize(name) + 2 + size
            guard total <= budget else { continue }
            budget -= total
            kept[name] = value
        }
        return kept
    }

    /// The size of this value's JSON (an upper bound), or `nil` when it is nested deeper than
    /// `depthLeft`, larger than `budget`, or holds a number JSON cannot write; the walk stops as
    /// soon as one of these is found.
    private func encodedSize(depthLeft: Int, budget: Int) -> Int? {
        guard depthLeft > 0 else { return nil }
        var size: Int
        switch self {
        case .null, .bool: size = 5
        case .number(let number):
            guard number.isFinite else { return nil }
            size = 32
        case .string(let text): size = Self.jsonStringSize(text)
        case .array(let values):
            size = 2
            for value in values {
                guard let element = value.encodedSize(depthLeft: depthLeft - 1, budget: budget - size) else {
                    return nil
                }
                size += element + 1
                if size > budget { return nil }
            }
        case .object(let members):
            size = 2
            for (name, value) in members {
                size += Self.jsonStringSize(name) + 2
                guard size <= budget,
                    let member = value.encodedSize(depthLeft: depthLeft - 1, budget: budget - size)
                else { return nil }
                size += member
            }
        }
        return size <= budget ? size : nil
    }

    /// An upper bound of a string's JSON size: its UTF-8 bytes and quotes, control characters
    /// counted as `\u00XX` escapes.
    private static func jsonStringSize(_ text: String) -> Int {
        text.utf8.reduce(2) { size, byte in size + (byte < 0x20 ? 6 : byte == 0x22 || byte == 0x5C ? 2 : 1) }
    }
}
