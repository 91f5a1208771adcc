/// The characters a bearer token may hold: RFC 6750 §2.1's `b64token`,
/// `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`.
///
/// A token outside it could not be sent in an `Authorization` header as RFC 6750 writes it, and
/// one holding CR or LF would inject a header wherever it is printed or stamped. Access and refresh
/// tokens are checked against it when an answer is read, and a session never holds an access token
/// that fails it.
@_spi(Migration) public enum B64Token {
    /// Whether `value` is a non-empty `b64token`.
    @_spi(Migration) public static func isValid(_ value: String) -> Bool {
        var sawPadding = false
        var count = 0
        for byte in value.utf8 {
            if byte == UInt8(ascii: "=") {
                guard count > 0 else { return false }
                sawPadding = true
                continue
            }
            guard !sawPadding, isTokenCharacter(byte) else { return false }
            count += 1
        }
        return count > 0
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"),
            UInt8(ascii: "/"):
            true
        default:
            false
        }
    }
}
