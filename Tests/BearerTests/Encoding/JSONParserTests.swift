import Foundation
import Testing

@testable import BearerCore

@Suite("JSONParser: RFC 8259, UTF-8 only, bounded nesting, no duplicate names")
struct JSONParserTests {
    private static func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Data(text.utf8))
    }

    @Test(
        "Reads what Foundation's decoder reads, to the same value",
        arguments: [
            #"{"a":1,"b":[true,false,null],"c":{"d":"e"}}"#,
            #"  [ 0 , -0 , 1.5 , -2e3 , 4E+2 , 5e-1 , 123456789 ]  "#,
            #""caf\u00e9 \ud83d\ude00 \" \\ \/ \b \f \n \r \t""#,
            "\"plain UTF-8: café 😀 \u{7F}\"",
            #"{"nested":[[[{"x":[{}]}]]],"empty":"","zero":0.0}"#,
            "null", "true", "17", #""s""#,
        ])
    func agreesWithFoundation(text: String) throws {
        let ours = try Self.parse(text)
        let foundation = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(ours == foundation)
    }

    @Test("Reads 0e4 as RFC 8259 §6 allows, where Foundation's decoder refuses it")
    func zeroWithExponent() throws {
        #expect(try Self.parse("[0e4,-0E-1]") == .array([.number(0), .number(0)]))
    }

    @Test("Skips a UTF-8 byte-order mark and reads numbers beyond a Double as infinity")
    func byteOrderMarkAndHugeNumbers() throws {
        #expect(try JSONParser.parse(Data([0xEF, 0xBB, 0xBF] + Array("[1]".utf8))) == .array([.number(1)]))
        #expect(try Self.parse("[1e400,-1e400]") == .array([.number(.infinity), .number(.infinity)]))
        #expect(try Self.parse("[1e-400]") == .array([.number(0)]), "below a Double's range is zero")
    }

    @Test(
        "Refuses text outside the grammar, at the byte where it goes wrong",
        arguments: [
            ("", 0), ("[1,]", 3), ("[01]", 2), ("[1.]", 3), ("[-]", 2), ("[.5]", 1), ("[+1]", 1), ("[1e]", 3),
            ("{'a':1}", 1), ("{\"a\" 1}", 5), ("{\"a\":1,}", 7), ("[NaN]", 1), ("[Infinity]", 1), ("tru", 0),
            ("[1] x", 4), ("{\"a\":1}{}", 7), ("[\"\\x\"]", 4), ("[\"\\u12\"]", 6), ("[\"abc", 5),
            ("[\"a\u{01}b\"]", 3), ("{\"a\":1,\"a\":2}", 11), ("[\"\\ud800\"]", 8), ("[\"\\udc00\"]", 8),
            ("[\"\\ud800\\u0041\"]", 14),
        ] as [(String, Int)])
    func refusesMalformedText(text: String, offset: Int) {
        let failure = #expect(throws: JSONParser.Failure.self) { try Self.parse(text) }
        #expect(failure?.offset == offset, "\(text): \(String(describing: failure))")
    }

    @Test(
        "Refuses bytes that are not UTF-8, and NUL",
        arguments: [
            [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22],
            [0x22, 0xE2, 0x82, 0x22], [0x22, 0x80, 0x22], [0x22, 0x00, 0x22], [0x00], [0xFE, 0xFF, 0x00, 0x5B],
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xE0, 0x80, 0xAF, 0x22],
        ] as [[UInt8]])
    func refusesOtherEncodings(bytes: [UInt8]) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Data(bytes)) }
        #expect(!JSONText.isUTF8(Data(bytes)), "the check before Foundation's decoder refuses the same bytes")
    }

    @Test("Reads arrays and objects nested as deep as the limit, and refuses one more")
    func nestingLimit() throws {
        let limit = JSONDecoder.nestingLimit
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(throws: Never.self) { try Self.parse(deepest) }
        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        let failure = #expect(throws: JSONParser.Failure.self) { try Self.parse(tooDeep) }
        #expect(failure?.offset == limit)
        #expect(throws: JSONParser.Failure.self) { try Self.parse(String(repeating: "[", count: limit + 1)) }
        #expect(throws: JSONParser.Failure.self) { try Self.parse(String(repeating: #"{"a":"#, count: limit + 1)) }
    }

    @Test("A failure names the reason and the offset, never the text")
    func failureHidesText() {
        let secret = "ya29.secret-token-value"
        let failure = #expect(throws: JSONParser.Failure.self) { try Self.parse(#"{"access_token":"\#(secret)"#) }
        #expect(failure.map { !"\($0)".contains(secret) } == true)
    }
}

@Suite("JSONValueDecoder: Decodable types from a parsed value")
struct JSONValueDecoderTests {
    private struct Sample: Decodable, Equatable {
        var date: Date
        var url: URL
        var count: Int
        var ratio: Double
        var names: [String]
        var extra: [String: JSONValue]
        var missing: String?
        var data: Data
    }

    @Test("Dates are seconds since 1970, URLs strings, data base64, as the session encoder writes them")
    func conventions() throws {
        let text = #"""
            {"date":1700000000.5,"url":"https://a.example/b?c","count":3,"ratio":0.25,"names":["x","y"],
             "extra":{"k":[1,{"z":null}]},"data":"AQID"}
            """#
        let sample = try JSONValueDecoder.decode(Sample.self, from: Data(text.utf8))
        #expect(sample.date == Date(timeIntervalSince1970: 1_700_000_000.5))
        #expect(sample.url.absoluteString == "https://a.example/b?c")
        #expect(sample.count == 3 && sample.ratio == 0.25 && sample.names == ["x", "y"])
        #expect(sample.extra == ["k": .array([.number(1), .object(["z": .null])])])
        #expect(sample.missing == nil)
        #expect(sample.data == Data([1, 2, 3]))
    }

    private struct Held: Decodable, Equatable {
        var access: AccessToken
        var refresh: RefreshToken?
        var secret: ClientSecret
        var scopes: [String]
        var labels: [String: String]
        var extra: [String: JSONValue]
    }

    @Test("The types a session holds, read without Decoder, come out as Foundation's decoder reads them")
    func directTypes() throws {
        let text = #"{"access":"a.b","secret":"s","scopes":["x","y"],"labels":{"k":"v"},"extra":{"n":null,"o":[1]}}"#
        let ours = try JSONValueDecoder.decode(Held.self, from: Data(text.utf8))
        #expect(ours == (try JSONDecoder().decode(Held.self, from: Data(text.utf8))))
        #expect(ours.access.value == "a.b" && ours.refresh == nil && ours.scopes == ["x", "y"])
        #expect(ours.labels == ["k": "v"] && ours.extra == ["n": .null, "o": .array([.number(1)])])
    }

    @Test(
        "A held type of the wrong shape fails with the path of the value at fault",
        arguments: [
            (#""access":1,"scopes":[],"labels":{}"#, "access"),
            (#""access":"a","scopes":["x",2],"labels":{}"#, "scopes.1"),
            (#""access":"a","scopes":[],"labels":{"k":true}"#, "labels.k"),
            (#""access":"a","scopes":{},"labels":{}"#, "scopes"),
        ])
    func directTypeErrors(members: String, path: String) {
        let text = #"{"secret":"s","extra":{},\#(members)}"#
        let error = #expect(throws: DecodingError.self) {
            try JSONValueDecoder.decode(Held.self, from: Data(text.utf8))
        }
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("expected a type mismatch, got \(String(describing: error))")
            return
        }
        #expect(
            context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".") == path)
    }

    @Test("A wrong type, a fraction read as an integer and a missing key are DecodingErrors with their path")
    func errors() {
        let base = #""date":0,"url":"https://a.example","ratio":1,"extra":{},"data":"""#
        for (text, path) in [
            (#"{"count":1.5,"names":[],\#(base)}"#, "count"), (#"{"count":1,"names":[1],\#(base)}"#, "names.0"),
            (#"{"names":[],\#(base)}"#, "count"),
        ] {
            let error = #expect(throws: DecodingError.self) {
                try JSONValueDecoder.decode(Sample.self, from: Data(text.utf8))
            }
            let keys: [any CodingKey]
            switch error {
            case .typeMismatch(_, let context), .dataCorrupted(let context), .valueNotFound(_, let context):
                keys = context.codingPath
            case .keyNotFound(let key, let context):
                keys = context.codingPath + [key]
            default:
                keys = []
            }
            #expect(keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".") == path)
        }
    }
}
