import Foundation

/// A binary property list (`bplist00`), read without Foundation's `PropertyListSerialization`
/// so that every malformed input becomes a typed error.
///
/// Objects are parsed once each, their bytes may not overlap, containers hold references
/// (indices) and data objects are slices of the input, never copies, so reading takes time and
/// memory linear in the input's size whatever its sharing. A reference cycle cannot make reading
/// loop; ``KeyedArchive`` walks detect cycles and charge what they produce against a budget.
struct BinaryPropertyList: Sendable {
    /// One object of the list.
    enum Object: Sendable, Equatable {
        case null
        case bool(Bool)
        case integer(Int64)
        case real(Double)
        /// Seconds since 2001-01-01 00:00:00 UTC.
        case date(Double)
        /// A slice of the input (its indices are those of the input, not zero-based).
        case data(Data)
        case string(String)
        case uid(UInt64)
        case array([Int])
        case dictionary([(key: Int, value: Int)])

        static func == (lhs: Object, rhs: Object) -> Bool {
            switch (lhs, rhs) {
            case (.null, .null): return true
            case (.bool(let a), .bool(let b)): return a == b
            case (.integer(let a), .integer(let b)): return a == b
            case (.real(let a), .real(let b)): return a.bitPattern == b.bitPattern
            case (.date(let a), .date(let b)): return a.bitPattern == b.bitPattern
            case (.data(let a), .data(let b)): return a == b
            case (.string(let a), .string(let b)): return a == b
            case (.uid(let a), .uid(let b)): return a == b
            case (.array(let a), .array(let b)): return a == b
            case (.dictionary(let a), .dictionary(let b)):
                return a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
            default: return false
            }
        }
    }

    /// Every object, in the order of the offset table.
    let objects: [Object]
    /// The index of the top object.
    let top: Int

    private static let magic = Array("bplist00".utf8)

    /// Parses `data`.
    ///
    /// - Throws: ``MigrationError`` of kind ``MigrationError/Kind/malformedArchive`` for anything
    ///   that is not a well-formed binary property list, including objects whose bytes overlap.
    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count >= Self.magic.count + 32, Array(bytes[0..<8]) == Self.magic else {
            throw MigrationError.malformedArchive("not a binary property list (bplist00)")
        }
        let reader = ByteReader(bytes: bytes, source: data)
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let count = try reader.unsignedInteger(at: trailer + 8, size: 8)
        let topIndex = try reader.unsignedInteger(at: trailer + 16, size: 8)
        let tableOffset = try reader.unsignedInteger(at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0,
            count <= UInt64(bytes.count), topIndex < count, tableOffset >= 8,
            tableOffset <= UInt64(trailer), count * UInt64(offsetSize) <= UInt64(trailer) - tableOffset
        else {
            throw MigrationError.malformedArchive("the property list's trailer is inconsistent")
        }
        var offsets: [Int] = []
        offsets.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let offset = try reader.unsignedInteger(at: Int(tableOffset) + index * offsetSize, size: offsetSize)
            guard offset >= 8, offset < tableOffset else {
                throw MigrationError.malformedArchive("object \(index) lies outside the object area")
            }
            offsets.append(Int(offset))
        }
        // Objects are parsed in the order of their offsets, each once, and each must start after
        // the previous one ends: table entries that point inside another object would make the
        // same bytes be read (and held) many times over. Several entries may name the same
        // offset; they share one object. A table of the object area, one entry per byte, gives
        // the offsets in order without sorting them.
        guard bytes.count < Int(Int32.max) else {
            throw MigrationError.malformedArchive("the property list is larger than 2 GiB")
        }
        var parsedIndex = [Int32](repeating: -1, count: Int(tableOffset))
        for offset in offsets { parsedIndex[offset] = 0 }
        var parsed: [BinaryPropertyList.Object] = []
        var previousEnd = 8
        for start in 8..<Int(tableOffset) where parsedIndex[start] == 0 {
            guard start >= previousEnd else {
                throw MigrationError.malformedArchive("two objects overlap at byte \(start)")
            }
            let (object, end) = try reader.object(
                at: start,
                referenceSize: referenceSize,
                objectCount: Int(count),
                end: Int(tableOffset)
            )
            parsedIndex[start] = Int32(parsed.count)
            parsed.append(object)
            previousEnd = end
        }
        self.objects = offsets.map { parsed[Int(parsedIndex[$0])] }
        self.top = Int(topIndex)
    }
}

/// Reads the parts of a binary property list, checking every bound.
private struct ByteReader {
    let bytes: [UInt8]
    /// The input, of which data objects are slices.
    let source: Data

    func unsignedInteger(at offset: Int, size: Int) throws -> UInt64 {
        guard offset >= 0, size >= 1, size <= 8, offset <= bytes.count - size else {
            throw MigrationError.malformedArchive("a number runs past the end of the data")
        }
        var value: UInt64 = 0
        var index = offset
        while index < offset + size {
            value = value << 8 | UInt64(bytes[index])
            index += 1
        }
        return value
    }

    /// The object at `offset` and the offset just past its last byte.
    func object(at offset: Int, referenceSize: Int, objectCount: Int, end: Int) throws -> (
        BinaryPropertyList.Object, end: Int
    ) {
        guard offset < end else { throw MigrationError.malformedArchive("an object lies outside the object area") }
        let marker = bytes[offset]
        let info = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return (.null, offset + 1)
            case 0x08: return (.bool(false), offset + 1)
            case 0x09: return (.bool(true), offset + 1)
            default: throw MigrationError.malformedArchive("unknown object marker \(marker)")
            }
        case 0x1:
            guard info <= 3 else {
                throw MigrationError.malformedArchive("integers wider than 8 bytes are not supported")
            }
            let size = 1 << info
            try check(offset + 1, size, end)
            let raw = try unsignedInteger(at: offset + 1, size: size)
            return (.integer(size == 8 ? Int64(bitPattern: raw) : Int64(raw)), offset + 1 + size)
        case 0x2:
            guard info == 2 || info == 3 else {
                throw MigrationError.malformedArchive("a real has an unsupported size")
            }
            let size = 1 << info
            try check(offset + 1, size, end)
            let raw = try unsignedInteger(at: offset + 1, size: size)
            return (
                .real(size == 4 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw)), offset + 1 + size
            )
        case 0x3:
            guard marker == 0x33 else { throw MigrationError.malformedArchive("a date has an unsupported size") }
            try check(offset + 1, 8, end)
            return (.date(Double(bitPattern: try unsignedInteger(at: offset + 1, size: 8))), offset + 9)
        case 0x4:
            let (length, start) = try lengthAndStart(offset, info, end)
            try check(start, length, end)
            // A slice of the input: no copy, whatever the size.
            let first = source.startIndex + start
            return (.data(source[first..<(first + length)]), start + length)
        case 0x5:
            let (length, start) = try lengthAndStart(offset, info, end)
            try check(start, length, end)
            guard bytes[start..<(start + length)].allSatisfy({ $0 < 0x80 }) else {
                throw MigrationError.malformedArchive("an ASCII string holds a non-ASCII byte")
            }
            return (.string(String(decoding: bytes[start..<(start + length)], as: UTF8.self)), start + length)
        case 0x6:
            let (length, start) = try lengthAndStart(offset, info, end)
            guard length <= (end - start) / 2 else {
                throw MigrationError.malformedArchive("a string runs past its end")
            }
            var units: [UInt16] = []
            units.reserveCapacity(length)
            for index in 0..<length {
                units.append(UInt16(bytes[start + 2 * index]) << 8 | UInt16(bytes[start + 2 * index + 1]))
            }
            return (.string(try Self.decodeUTF16(units)), start + 2 * length)
        case 0x8:
            let size = info + 1
            guard size <= 8 else { throw MigrationError.malformedArchive("a UID is wider than 8 bytes") }
            try check(offset + 1, size, end)
            return (.uid(try unsignedInteger(at: offset + 1, size: size)), offset + 1 + size)
        case 0xA:
            let (length, start) = try lengthAndStart(offset, info, end)
            let items = try references(start, length, referenceSize, objectCount, end)
            return (.array(items), start + length * referenceSize)
        case 0xD:
            let (length, start) = try lengthAndStart(offset, info, end)
            let all = try references(start, length * 2, referenceSize, objectCount, end)
            return (.dictionary((0..<length).map { (all[$0], all[length + $0]) }), start + 2 * length * referenceSize)
        default:
            throw MigrationError.malformedArchive("unknown object marker \(marker)")
        }
    }

    private static func decodeUTF16(_ units: [UInt16]) throws -> String {
        var iterator = units.makeIterator()
        var parser = UTF16.ForwardParser()
        var scalars = String.UnicodeScalarView()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): scalars.append(UTF16.decode(encoded))
            case .emptyInput: return String(scalars)
            case .error: throw MigrationError.malformedArchive("a UTF-16 string is not valid")
            }
        }
    }

    private func check(_ start: Int, _ length: Int, _ end: Int) throws {
        guard length >= 0, start <= end, length <= end - start else {
            throw MigrationError.malformedArchive("an object runs past the object area")
        }
    }

    /// The element count of a data, string or container object, and where its contents start.
    private func lengthAndStart(_ offset: Int, _ info: Int, _ end: Int) throws -> (Int, Int) {
        guard info == 0x0F else { return (info, offset + 1) }
        guard offset + 1 < end else { throw MigrationError.malformedArchive("a length runs past the object area") }
        let marker = bytes[offset + 1]
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else {
            throw MigrationError.malformedArchive("a length is not an integer")
        }
        let size = 1 << Int(marker & 0x0F)
        try check(offset + 2, size, end)
        let length = try unsignedInteger(at: offset + 2, size: size)
        guard length <= UInt64(end) else { throw MigrationError.malformedArchive("a length is larger than the data") }
        return (Int(length), offset + 2 + size)
    }

    private func references(_ start: Int, _ count: Int, _ size: Int, _ objectCount: Int, _ end: Int) throws -> [Int] {
        guard count <= (end - start) / size else {
            throw MigrationError.malformedArchive("a container runs past its end")
        }
        var references: [Int] = []
        references.reserveCapacity(count)
        var index = 0
        while index < count {
            let reference = try unsignedInteger(at: start + index * size, size: size)
            guard reference < UInt64(objectCount) else {
                throw MigrationError.malformedArchive("a container refers to a missing object")
            }
            references.append(Int(reference))
            index += 1
        }
        return references
    }
}
