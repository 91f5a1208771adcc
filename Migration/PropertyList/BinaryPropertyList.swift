import Foundation

/// A binary property list (`bplist00`), read without Foundation's `PropertyListSerialization`
/// so that every malformed input becomes a typed error.
///
/// Objects are parsed once each and containers hold references (indices), never copies, so
/// reading is linear in the input's size whatever its sharing, and a reference cycle cannot make
/// reading loop: walkers detect cycles with ``ReferenceWalk``.
struct BinaryPropertyList: Sendable {
    /// One object of the list.
    enum Object: Sendable, Equatable {
        case null
        case bool(Bool)
        case integer(Int64)
        case real(Double)
        /// Seconds since 2001-01-01 00:00:00 UTC.
        case date(Double)
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
    ///   that is not a well-formed binary property list.
    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count >= Self.magic.count + 32, Array(bytes[0..<8]) == Self.magic else {
            throw MigrationError.malformedArchive("not a binary property list (bplist00)")
        }
        let reader = ByteReader(bytes: bytes)
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
        var objects: [Object] = []
        objects.reserveCapacity(Int(count))
        // Several table entries may name the same offset; each object is parsed once and shared
        // (arrays are copy-on-write), so repeated entries cannot multiply the work.
        var parsed: [UInt64: Object] = [:]
        for index in 0..<Int(count) {
            let offset = try reader.unsignedInteger(at: Int(tableOffset) + index * offsetSize, size: offsetSize)
            guard offset >= 8, offset < tableOffset else {
                throw MigrationError.malformedArchive("object \(index) lies outside the object area")
            }
            if let object = parsed[offset] {
                objects.append(object)
                continue
            }
            let object = try reader.object(
                at: Int(offset),
                referenceSize: referenceSize,
                objectCount: Int(count),
                end: Int(tableOffset)
            )
            parsed[offset] = object
            objects.append(object)
        }
        self.objects = objects
        self.top = Int(topIndex)
    }
}

/// Reads the parts of a binary property list, checking every bound.
private struct ByteReader {
    let bytes: [UInt8]

    func unsignedInteger(at offset: Int, size: Int) throws -> UInt64 {
        guard offset >= 0, size >= 1, size <= 8, offset <= bytes.count - size else {
            throw MigrationError.malformedArchive("a number runs past the end of the data")
        }
        var value: UInt64 = 0
        for byte in bytes[offset..<(offset + size)] { value = value << 8 | UInt64(byte) }
        return value
    }

    func object(at offset: Int, referenceSize: Int, objectCount: Int, end: Int) throws -> BinaryPropertyList.Object {
        guard offset < end else { throw MigrationError.malformedArchive("an object lies outside the object area") }
        let marker = bytes[offset]
        let info = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw MigrationError.malformedArchive("unknown object marker \(marker)")
            }
        case 0x1:
            guard info <= 3 else {
                throw MigrationError.malformedArchive("integers wider than 8 bytes are not supported")
            }
            let size = 1 << info
            try check(offset + 1, size, end)
            let raw = try unsignedInteger(at: offset + 1, size: size)
            return .integer(size == 8 ? Int64(bitPattern: raw) : Int64(raw))
        case 0x2:
            guard info == 2 || info == 3 else {
                throw MigrationError.malformedArchive("a real has an unsupported size")
            }
            let size = 1 << info
            try check(offset + 1, size, end)
            let raw = try unsignedInteger(at: offset + 1, size: size)
            return .real(size == 4 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw))
        case 0x3:
            guard marker == 0x33 else { throw MigrationError.malformedArchive("a date has an unsupported size") }
            try check(offset + 1, 8, end)
            return .date(Double(bitPattern: try unsignedInteger(at: offset + 1, size: 8)))
        case 0x4:
            let (length, start) = try lengthAndStart(offset, info, end)
            try check(start, length, end)
            return .data(Data(bytes[start..<(start + length)]))
        case 0x5:
            let (length, start) = try lengthAndStart(offset, info, end)
            try check(start, length, end)
            guard bytes[start..<(start + length)].allSatisfy({ $0 < 0x80 }) else {
                throw MigrationError.malformedArchive("an ASCII string holds a non-ASCII byte")
            }
            return .string(String(decoding: bytes[start..<(start + length)], as: UTF8.self))
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
            return .string(try Self.decodeUTF16(units))
        case 0x8:
            let size = info + 1
            guard size <= 8 else { throw MigrationError.malformedArchive("a UID is wider than 8 bytes") }
            try check(offset + 1, size, end)
            return .uid(try unsignedInteger(at: offset + 1, size: size))
        case 0xA:
            let (length, start) = try lengthAndStart(offset, info, end)
            return .array(try references(start, length, referenceSize, objectCount, end))
        case 0xD:
            let (length, start) = try lengthAndStart(offset, info, end)
            let all = try references(start, length * 2, referenceSize, objectCount, end)
            return .dictionary((0..<length).map { (all[$0], all[length + $0]) })
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
        return try (0..<count).map { index in
            let reference = try unsignedInteger(at: start + index * size, size: size)
            guard reference < UInt64(objectCount) else {
                throw MigrationError.malformedArchive("a container refers to a missing object")
            }
            return Int(reference)
        }
    }
}
