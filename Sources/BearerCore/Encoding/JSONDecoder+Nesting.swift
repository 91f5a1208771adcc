#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension JSONDecoder {
    /// The deepest nesting of arrays and objects read; Foundation's decoder refuses deeper input.
    static let nestingLimit = 512

    /// Decodes `data` as `decode(_:from:)` does, after checking that it is UTF-8 (see
    /// ``JSONText``) and that its arrays and objects nest at most ``nestingLimit`` deep.
    ///
    /// Foundation's decoder traps, instead of throwing, on an input that ends exactly when its
    /// nesting passes that limit (513 `[` and nothing else), so every answer from a server, file
    /// or keychain item is checked first. The depth is counted on UTF-8 bytes, so UTF-16 and
    /// UTF-32 texts, which Foundation would also read, are refused before the count.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The JSON text.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError.dataCorrupted` for input that is not UTF-8 or is nested too
    ///   deeply; else what `decode(_:from:)` throws.
    @_spi(Internals) public func decodeRefusingDeepNesting<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        guard JSONText.isUTF8(data) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [],
                    debugDescription: "The JSON text is not UTF-8 (RFC 8259 §8.1)."
                )
            )
        }
        guard Self.nestsWithinLimit(data) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [],
                    debugDescription: "The JSON nests more than \(Self.nestingLimit) arrays and objects deep."
                )
            )
        }
        return try decode(type, from: data)
    }

    /// Whether the brackets of `data` outside strings nest at most ``nestingLimit`` deep.
    static func nestsWithinLimit(_ data: Data) -> Bool {
        data.withUnsafeBytes { nestsWithinLimit($0) }
    }

    private static func nestsWithinLimit(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > nestingLimit { return false }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            default:
                break
            }
        }
        return true
    }
}
