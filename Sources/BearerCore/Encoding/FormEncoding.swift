/// `application/x-www-form-urlencoded` encoding, written by hand (WHATWG URL §5, RFC 6749 Appendix B).
///
/// Only `A–Z a–z 0–9 - . _ * ~` are left as they are; a space becomes `+` and everything else is
/// percent-encoded, so a `+` in a value is always sent as `%2B`. (`URLComponents` leaves `+` alone,
/// which servers read back as a space.)
///
/// ```swift
/// FormEncoding.encode([("grant_type", "authorization_code"), ("code", "a+b")])
/// // "grant_type=authorization_code&code=a%2Bb"
/// ```
@_spi(Migration) public enum FormEncoding {
    /// Encodes one name or value.
    ///
    /// - Parameter text: The text to encode.
    /// - Returns: The form-encoded text.
    static func encode(_ text: some StringProtocol) -> String {
        encode(text, spaceAsPlus: true)
    }

    /// Percent-encodes everything but `A–Z a–z 0–9 - . _ ~` (RFC 3986 §2.3); a space becomes `%20`.
    ///
    /// - Parameter text: The text to encode.
    /// - Returns: The encoded text.
    @_spi(Migration) public static func percentEncode(_ text: some StringProtocol) -> String {
        encode(text, spaceAsPlus: false)
    }

    private static func encode(_ text: some StringProtocol, spaceAsPlus: Bool) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if byte.isUnreservedInURI || (spaceAsPlus && byte == UInt8(ascii: "*")) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else if byte == UInt8(ascii: " ") && spaceAsPlus {
                result.append("+")
            } else {
                result.append("%")
                result.unicodeScalars.append(hexDigit(byte >> 4))
                result.unicodeScalars.append(hexDigit(byte & 0x0F))
            }
        }
        return result
    }

    /// Encodes name/value pairs, in order, joined with `&`.
    ///
    /// - Parameter pairs: The pairs to encode; names may repeat.
    /// - Returns: The form-encoded body or query.
    static func encode(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }

    /// Decodes one form-encoded name or value: `+` is a space and `%XX` a byte.
    ///
    /// Invalid percent escapes are kept as they are, and bytes that are not UTF-8 become U+FFFD,
    /// as browsers do.
    ///
    /// - Parameter text: The text to decode.
    /// - Returns: The decoded text.
    static func decode(_ text: some StringProtocol) -> String {
        decode(text, plusAsSpace: true)
    }

    /// Decodes `%XX` escapes only (RFC 3986 §2.1): `+` stays `+`. Invalid escapes are kept as they are.
    ///
    /// - Parameter text: The text to decode.
    /// - Returns: The decoded text.
    @_spi(Migration) public static func percentDecode(_ text: some StringProtocol) -> String {
        decode(text, plusAsSpace: false)
    }

    private static func decode(_ text: some StringProtocol, plusAsSpace: Bool) -> String {
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") && plusAsSpace {
                decoded.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 2
            } else {
                decoded.append(byte)
            }
            index += 1
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// Decodes a form-encoded body or query into name/value pairs, in order.
    ///
    /// Empty segments are skipped; a segment without `=` has an empty value.
    ///
    /// - Parameter text: The body or query, without a leading `?`.
    /// - Returns: The decoded pairs.
    static func decodePairs(_ text: some StringProtocol) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { segment in
            guard let equals = segment.firstIndex(of: "=") else {
                return (decode(segment), "")
            }
            return (decode(segment[..<equals]), decode(segment[segment.index(after: equals)...]))
        }
    }

    private static func hexDigit(_ value: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension UInt8 {
    /// Whether the byte is an unreserved URI character, `A–Z a–z 0–9 - . _ ~` (RFC 3986 §2.3),
    /// which is also the PKCE verifier alphabet (RFC 7636 §4.1).
    var isUnreservedInURI: Bool {
        switch self {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
