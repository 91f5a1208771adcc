#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The encoding rule for every JSON text Bearer reads: UTF-8 only (RFC 8259 §8.1).
///
/// Foundation's decoder also accepts UTF-16 and UTF-32, chosen from a byte-order mark or from the
/// pattern of NUL bytes, while the nesting guard (``JSONDecoder/nestsWithinLimit(_:)``) reads the
/// bytes as UTF-8. Refusing everything else first means both read the same characters. A UTF-8
/// byte-order mark is accepted, as RFC 8259 §8.1 allows a parser to ignore it.
enum JSONText {
    /// Whether `data` is well-formed UTF-8 (no overlong forms, no surrogates, nothing past
    /// U+10FFFF) without a NUL byte. JSON never holds a raw NUL (RFC 8259 §7 requires control
    /// characters to be escaped), and a NUL is what makes Foundation read UTF-16 or UTF-32.
    static func isUTF8(_ data: Data) -> Bool {
        data.withUnsafeBytes { isUTF8($0) }
    }

    /// Whether `bytes` are well-formed UTF-8 without a NUL byte, as the `Data` overload says.
    static func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index < bytes.count {
            guard let length = scalarLength(in: bytes, at: index) else { return false }
            index += length
        }
        return true
    }

    /// The length in bytes of the well-formed UTF-8 scalar that starts at `index`, or `nil` when
    /// the bytes there are not one (an overlong form, a surrogate, past U+10FFFF, cut short) or
    /// are NUL: the one rule both this check and ``JSONParser`` apply.
    static func scalarLength(in bytes: UnsafeRawBufferPointer, at index: Int) -> Int? {
        let lead = bytes[index]
        let second: ClosedRange<UInt8>
        let length: Int
        switch lead {
        case 0x01...0x7F: return 1
        case 0xC2...0xDF: (second, length) = (0x80...0xBF, 2)
        case 0xE0: (second, length) = (0xA0...0xBF, 3)
        case 0xED: (second, length) = (0x80...0x9F, 3)
        case 0xE1...0xEF: (second, length) = (0x80...0xBF, 3)
        case 0xF0: (second, length) = (0x90...0xBF, 4)
        case 0xF4: (second, length) = (0x80...0x8F, 4)
        case 0xF1...0xF3: (second, length) = (0x80...0xBF, 4)
        default: return nil
        }
        guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return nil }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) { return nil }
        return length
    }
}
