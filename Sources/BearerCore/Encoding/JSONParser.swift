#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Bearer's own reader of JSON text (RFC 8259) into ``JSONValue``, for what Bearer reads on every
/// launch: saved sessions and ID tokens.
///
/// It reads in one pass what ``JSONText`` and ``JSONDecoder/nestsWithinLimit(_:)`` check before
/// Foundation's decoder runs: UTF-8 only (a UTF-8 byte-order mark is skipped), no raw control
/// characters or NUL in strings, no lone surrogates in `\u` escapes, at most
/// ``JSONDecoder/nestingLimit`` arrays and objects deep. It also refuses an object that names a
/// member twice (RFC 7519 §4 lets a JWT reader refuse them; Bearer never writes them). A number
/// beyond a `Double`'s range reads as infinity, as ``JSONValue`` says. Errors give the byte offset,
/// never the text.
struct JSONParser {
    /// Why a text is not JSON Bearer reads.
    struct Failure: Error, CustomStringConvertible {
        /// What is wrong, without the text.
        let reason: String
        /// The byte offset where reading stopped.
        let offset: Int

        /// The reason and the offset.
        var description: String { "\(reason) at byte \(offset)" }
    }

    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var depth = 0
    /// The members of the objects being read, innermost last, with where each value starts: an
    /// object's dictionary is made once its size is known, instead of growing member by member.
    private var pendingMembers: [(name: String, value: JSONValue, offset: Int)] = []

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Reads `data` as one JSON value.
    ///
    /// - Parameter data: The JSON text.
    /// - Returns: The value.
    /// - Throws: ``Failure`` when it is not a JSON text Bearer reads.
    static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { buffer in
            var parser = JSONParser(buffer)
            if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { parser.index = 3 }
            parser.skipWhitespace()
            let value = try parser.value()
            parser.skipWhitespace()
            guard parser.index == buffer.count else { throw parser.failure("Text follows the JSON value") }
            return value
        }
    }

    private func failure(_ reason: String) -> Failure { Failure(reason: reason, offset: index) }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func value() throws -> JSONValue {
        guard let byte = current else { throw failure("The text ends where a value should be") }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw failure("A value cannot start here")
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw failure("The text ends inside a literal") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw failure("Not a JSON literal")
        }
        index += count
        return value
    }

    private mutating func enter() throws {
        depth += 1
        guard depth <= JSONDecoder.nestingLimit else {
            throw failure("The JSON nests more than \(JSONDecoder.nestingLimit) arrays and objects deep")
        }
    }

    private mutating func object() throws -> JSONValue {
        try enter()
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object([:])
        }
        let first = pendingMembers.count
        while true {
            guard current == UInt8(ascii: "\"") else { throw failure("An object member must start with a name") }
            let name = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("A member name must be followed by a colon") }
            index += 1
            skipWhitespace()
            let start = index
            pendingMembers.append((name, try value(), start))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(try members(from: first))
            default:
                throw failure("An object member must be followed by a comma or a closing brace")
            }
        }
    }

    /// The object whose members were read from `first` on, which are then let go.
    private mutating func members(from first: Int) throws -> [String: JSONValue] {
        defer { pendingMembers.removeSubrange(first...) }
        var members = [String: JSONValue](minimumCapacity: pendingMembers.count - first)
        for member in pendingMembers[first...] {
            guard members.updateValue(member.value, forKey: member.name) == nil else {
                throw Failure(reason: "An object names the same member twice", offset: member.offset)
            }
        }
        return members
    }

    private mutating func array() throws -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try value())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default:
                throw failure("An array element must be followed by a comma or a closing bracket")
            }
        }
    }

    private mutating func number() throws -> Double {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { throw failure("A number needs a digit") }
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw failure("A decimal point must be followed by a digit") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw failure("An exponent needs a digit") }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        // Only a magnitude beyond a Double's is left to fail: it reads as (positive) infinity
        // whatever its sign, as JSONValue reads such numbers from Foundation's decoder.
        return Double(text).flatMap { $0.isFinite ? $0 : nil } ?? .infinity
    }

    private mutating func digits() -> Int {
        let start = index
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    /// Reads a string from its opening quote; its text must be well-formed UTF-8.
    private mutating func string() throws -> String {
        index += 1
        let start = index
        // The common case: no escapes, so the string is the bytes between the quotes.
        while let byte = current {
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("A string holds a control character that is not escaped") }
            if byte < 0x80 {
                index += 1
            } else {
                try scalar()
            }
        }
        guard current != nil else { throw failure("The text ends inside a string") }
        var utf8 = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                try escape(into: &utf8)
            case 0x00..<0x20:
                throw failure("A string holds a control character that is not escaped")
            case 0x20..<0x80:
                utf8.append(byte)
                index += 1
            default:
                let scalarStart = index
                try scalar()
                utf8.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[scalarStart..<index]))
            }
        }
        throw failure("The text ends inside a string")
    }

    /// Steps over one multi-byte UTF-8 scalar, as ``JSONText/scalarLength(in:at:)`` reads it.
    private mutating func scalar() throws {
        guard let length = JSONText.scalarLength(in: bytes, at: index) else {
            throw failure("The text is not UTF-8 (RFC 8259 §8.1)")
        }
        index += length
    }

    /// Reads the escape after a backslash and appends its UTF-8.
    private mutating func escape(into utf8: inout [UInt8]) throws {
        guard let byte = current else { throw failure("The text ends inside an escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var code = UInt32(try hexQuad())
            if (0xD800...0xDBFF).contains(code) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                else { throw failure("A high surrogate escape is not followed by a low one") }
                index += 2
                let low = UInt32(try hexQuad())
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw failure("A high surrogate escape is not followed by a low one")
                }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { throw failure("A lone low surrogate escape") }
            UTF8.encode(scalar) { utf8.append($0) }
        default:
            throw failure("Not a JSON escape")
        }
    }

    private mutating func hexQuad() throws -> UInt16 {
        guard index + 4 <= bytes.count else { throw failure("The text ends inside a \\u escape") }
        var code: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("A \\u escape needs four hexadecimal digits")
            }
            code = code << 4 | UInt16(digit)
            index += 1
        }
        return code
    }
}
