import Foundation

/// Writes a binary property list (`bplist00`) from objects added one by one; containers refer to
/// objects added before them by index.
struct BinaryPropertyListWriter {
    private(set) var objects: [BinaryPropertyList.Object] = []

    /// Adds an object and returns its index.
    mutating func add(_ object: BinaryPropertyList.Object) -> Int {
        objects.append(object)
        return objects.count - 1
    }

    /// The encoded list with `top` as its top object.
    func encoded(top: Int) -> Data {
        let referenceSize = Self.byteCount(for: UInt64(max(objects.count - 1, 0)))
        var output: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(output.count)
            Self.append(object, referenceSize: referenceSize, to: &output)
        }
        let tableOffset = output.count
        let offsetSize = Self.byteCount(for: UInt64(tableOffset))
        for offset in offsets { Self.appendBigEndian(UInt64(offset), size: offsetSize, to: &output) }
        output.append(contentsOf: [0, 0, 0, 0, 0, 0])
        output.append(UInt8(offsetSize))
        output.append(UInt8(referenceSize))
        Self.appendBigEndian(UInt64(objects.count), size: 8, to: &output)
        Self.appendBigEndian(UInt64(top), size: 8, to: &output)
        Self.appendBigEndian(UInt64(tableOffset), size: 8, to: &output)
        return Data(output)
    }

    private static func append(_ object: BinaryPropertyList.Object, referenceSize: Int, to output: inout [UInt8]) {
        switch object {
        case .null:
            output.append(0x00)
        case .bool(let value):
            output.append(value ? 0x09 : 0x08)
        case .integer(let value):
            appendInteger(value, to: &output)
        case .real(let value):
            output.append(0x23)
            appendBigEndian(value.bitPattern, size: 8, to: &output)
        case .date(let value):
            output.append(0x33)
            appendBigEndian(value.bitPattern, size: 8, to: &output)
        case .data(let value):
            appendMarker(0x40, count: value.count, to: &output)
            output.append(contentsOf: value)
        case .string(let value):
            if value.utf8.allSatisfy({ $0 < 0x80 }) {
                appendMarker(0x50, count: value.utf8.count, to: &output)
                output.append(contentsOf: value.utf8)
            } else {
                let units = Array(value.utf16)
                appendMarker(0x60, count: units.count, to: &output)
                for unit in units { appendBigEndian(UInt64(unit), size: 2, to: &output) }
            }
        case .uid(let value):
            let size = byteCount(for: value)
            output.append(0x80 | UInt8(size - 1))
            appendBigEndian(value, size: size, to: &output)
        case .array(let references):
            appendMarker(0xA0, count: references.count, to: &output)
            for reference in references { appendBigEndian(UInt64(reference), size: referenceSize, to: &output) }
        case .dictionary(let entries):
            appendMarker(0xD0, count: entries.count, to: &output)
            for entry in entries { appendBigEndian(UInt64(entry.key), size: referenceSize, to: &output) }
            for entry in entries { appendBigEndian(UInt64(entry.value), size: referenceSize, to: &output) }
        }
    }

    private static func appendMarker(_ type: UInt8, count: Int, to output: inout [UInt8]) {
        if count < 15 {
            output.append(type | UInt8(count))
        } else {
            output.append(type | 0x0F)
            appendInteger(Int64(count), to: &output)
        }
    }

    private static func appendInteger(_ value: Int64, to output: inout [UInt8]) {
        if value < 0 {
            output.append(0x13)
            appendBigEndian(UInt64(bitPattern: value), size: 8, to: &output)
            return
        }
        let size = byteCount(for: UInt64(value))
        let exponent: UInt8 = size == 1 ? 0 : size == 2 ? 1 : size <= 4 ? 2 : 3
        output.append(0x10 | exponent)
        appendBigEndian(UInt64(value), size: 1 << Int(exponent), to: &output)
    }

    /// 1, 2, 4 or 8: the fewest bytes that hold `value`.
    private static func byteCount(for value: UInt64) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    private static func appendBigEndian(_ value: UInt64, size: Int, to output: inout [UInt8]) {
        for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
            output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
