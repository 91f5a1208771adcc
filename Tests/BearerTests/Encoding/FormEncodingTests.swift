import Bearer
import Testing

@_spi(Migration) @_spi(Testing) @testable import BearerCore

@Suite("Form encoding")
struct FormEncodingTests {
    @Test("The published vector encodes with + for space and %2B for plus")
    func encodesPublishedVector() {
        let encoded = FormEncoding.encode("t _9V-F*I+Z1Lk.u7:2/8L+w=")
        #expect(encoded == "t+_9V-F*I%2BZ1Lk.u7%3A2%2F8L%2Bw%3D")
    }

    @Test("The published vector decodes, reading + as a space")
    func decodesPublishedVector() {
        #expect(FormEncoding.decode("+%25%26%2B%C2%A3%E2%82%AC") == " %&+£€")
    }

    @Test("Only A–Z a–z 0–9 - . _ * ~ stay unescaped")
    func onlyUnreservedCharactersStay() {
        for byte in UInt8(0x20)...UInt8(0x7E) {
            let text = String(UnicodeScalar(byte))
            let encoded = FormEncoding.encode(text)
            let unreserved =
                text.first.map { $0.isASCII && ($0.isLetter || $0.isNumber) || "-._*~".contains($0) } ?? false
            if unreserved {
                #expect(encoded == text)
            } else if byte == UInt8(ascii: " ") {
                #expect(encoded == "+")
            } else {
                #expect(encoded.hasPrefix("%") && encoded.count == 3, "\(text) → \(encoded)")
            }
        }
    }

    @Test("Encoding then decoding gives back any text, %20 decodes as a space, bad escapes stay")
    func roundTrips() {
        for text in ["", "a b+c", "£€ 😀", "%zz", "=&?#", "line\nbreak"] {
            #expect(FormEncoding.decode(FormEncoding.encode(text)) == text)
        }
        #expect(FormEncoding.decode("a%20b") == "a b")
        #expect(FormEncoding.decode("100%") == "100%")
        #expect(FormEncoding.decode("%4") == "%4")
    }

    @Test("Pairs keep their order, and a name without = has an empty value")
    func pairs() {
        let pairs = FormEncoding.decodePairs("b=2&a=1&&flag&c=x%3Dy")
        #expect(pairs.map(\.name) == ["b", "a", "flag", "c"])
        #expect(pairs.map(\.value) == ["2", "1", "", "x=y"])
        #expect(FormEncoding.encode([("scope", "a b"), ("x", "+")]) == "scope=a+b&x=%2B")
    }
}

@Suite("Base64url")
struct Base64URLTests {
    @Test("Encodes without padding using - and _")
    func encodes() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.encode(Array("f".utf8)) == "Zg")
        #expect(Base64URL.encode([UInt8]()) == "")
    }

    @Test("Decodes base64url with or without padding, and standard base64")
    func decodes() {
        #expect(Base64URL.decode("-_8").map(Array.init) == [0xFB, 0xFF])
        #expect(Base64URL.decode("+/8=").map(Array.init) == [0xFB, 0xFF])
        #expect(Base64URL.decode("Zg==").map(Array.init) == Array("f".utf8))
        #expect(Base64URL.decode("Z") == nil)
        #expect(Base64URL.decode("Z!g") == nil)
    }
}

@Suite("Percent encoding")
struct PercentEncodingTests {
    @Test("Only unreserved characters stay; a space is %20, + and * are escaped, and decoding keeps +")
    func percentEncoding() {
        #expect(FormEncoding.percentEncode("a b+c*d~e") == "a%20b%2Bc%2Ad~e")
        #expect(FormEncoding.percentDecode("a+b%20c%2B%zz") == "a+b c+%zz")
        for text in ["", "a b+c", "£€ 😀", "%zz", "=&?#[]"] {
            #expect(FormEncoding.percentDecode(FormEncoding.percentEncode(text)) == text)
        }
    }
}
