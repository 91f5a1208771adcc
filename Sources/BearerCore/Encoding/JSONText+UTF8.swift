#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// The encoding rule for every JSON text Bearer reads: UTF-8 only (RFC 8259 §8.1).
///
/// Foundation's decoder also accepts UTF-16 and UTF-32, chosen from a byte-order mark or from the
/// pattern of NUL bytes, while the nesting guard (``JSONDecoder/nestsWithinLimit(_:)``) reads the
/// bytes as UTF-8. Refusing everything else first means both read the same characters. A UTF-8
/// byte-order mark is accepted, as RFC 8259 §8.1 allows a parser to ignore it.
package enum JSONText {
    /// Whether `data` is well-formed UTF-8 (no overlong forms, no surrogates, nothing past
    /// U+10FFFF) without a NUL byte. JSON never holds a raw NUL (RFC 8259 §7 requires control
    /// characters to be escaped), and a NUL is what makes Foundation read UTF-16 or UTF-32.
    package static func isUTF8(_ data: Data) -> Bool {
        data.withUnsafeBytes { isUTF8($0) }
    }

    /// Whether `bytes` are well-formed UTF-8 without a NUL byte, as the `Data` overload says.
    package static func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var iterator = bytes.makeIterator()
        while let lead = iterator.next() {
            switch lead {
            case 0x00:
                return false
            case 0x01...0x7F:
                continue
            case 0xC2...0xDF:
                guard continuation(&iterator, in: 0x80...0xBF) else { return false }
            case 0xE0...0xEF:
                let second: ClosedRange<UInt8> =
                    lead == 0xE0 ? 0xA0...0xBF : lead == 0xED ? 0x80...0x9F : 0x80...0xBF
                guard continuation(&iterator, in: second), continuation(&iterator, in: 0x80...0xBF) else {
                    return false
                }
            case 0xF0...0xF4:
                let second: ClosedRange<UInt8> =
                    lead == 0xF0 ? 0x90...0xBF : lead == 0xF4 ? 0x80...0x8F : 0x80...0xBF
                guard continuation(&iterator, in: second), continuation(&iterator, in: 0x80...0xBF),
                    continuation(&iterator, in: 0x80...0xBF)
                else { return false }
            default:
                return false
            }
        }
        return true
    }

    private static func continuation(_ iterator: inout UnsafeRawBufferPointer.Iterator, in range: ClosedRange<UInt8>)
        -> Bool
    {
        guard let byte = iterator.next() else { return false }
        return range.contains(byte)
    }
}
