#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Base64url without padding (RFC 4648 §5), as PKCE (RFC 7636 §3) and JWTs (RFC 7515 §2) use it.
@_spi(Testing) @_spi(Benchmarks) @_spi(CommandLine) public enum Base64URL {
    /// Encodes `bytes` as base64url without `=` padding.
    ///
    /// - Parameter bytes: The bytes to encode.
    /// - Returns: The encoded text, using `A–Z a–z 0–9 - _` only.
    @_spi(Testing) @_spi(Benchmarks) @_spi(CommandLine) public static func encode(_ bytes: some Sequence<UInt8>)
        -> String
    {
        let input = Array(bytes)
        var output = [UInt8]()
        output.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= input.count {
            let group = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output.append(alphabet[Int(group >> 18 & 63)])
            output.append(alphabet[Int(group >> 12 & 63)])
            output.append(alphabet[Int(group >> 6 & 63)])
            output.append(alphabet[Int(group & 63)])
            index += 3
        }
        switch input.count - index {
        case 1:
            let group = UInt32(input[index]) << 16
            output.append(alphabet[Int(group >> 18 & 63)])
            output.append(alphabet[Int(group >> 12 & 63)])
        case 2:
            let group = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            output.append(alphabet[Int(group >> 18 & 63)])
            output.append(alphabet[Int(group >> 12 & 63)])
            output.append(alphabet[Int(group >> 6 & 63)])
        default:
            break
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The base64url alphabet (RFC 4648 §5).
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Decodes base64url text, with or without padding; standard base64 (`+`, `/`) is accepted too.
    ///
    /// - Parameter text: The encoded text.
    /// - Returns: The decoded bytes, or `nil` when `text` is not base64.
    @_spi(Testing) @_spi(Benchmarks) @_spi(CommandLine) public static func decode(_ text: some StringProtocol) -> Data?
    {
        var standard = ""
        standard.reserveCapacity(text.utf8.count + 3)
        for character in text.unicodeScalars {
            switch character {
            case "-": standard.append("+")
            case "_": standard.append("/")
            case "=": continue
            default: standard.unicodeScalars.append(character)
            }
        }
        switch standard.utf8.count % 4 {
        case 1: return nil
        case 2: standard += "=="
        case 3: standard += "="
        default: break
        }
        return Data(base64Encoded: standard)
    }
}
