#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A `Bearer` challenge from a `WWW-Authenticate` header (RFC 6750 §3, RFC 9110 §11.6.1).
///
/// ``AuthSession/data(for:)->_`` reads it to retry a rejected token once and to turn
/// `insufficient_scope` into an ``OAuthError``; an app reads it from a response it was given back
/// (a `401` the retry did not cure) for the server's `error_description` and `realm`.
///
/// ```swift
/// let challenge = BearerChallenge(header: #"Bearer realm="api", error="invalid_token""#)
/// challenge?.error  // "invalid_token"
/// ```
public struct BearerChallenge: Sendable, Hashable {
    /// The challenge's parameters, names lowercased, values unquoted.
    public var parameters: [String: String]

    /// `error`, e.g. `invalid_token` or `insufficient_scope`.
    public var error: String? { parameters["error"] }
    /// `error_description`.
    public var errorDescription: String? { parameters["error_description"] }
    /// `scope`, split on spaces.
    public var scopes: [String] { parameters["scope"].map(Scopes.parse) ?? [] }
    /// `realm`.
    public var realm: String? { parameters["realm"] }
    /// `resource_metadata`: where the resource's metadata is (RFC 9728 §5.1), when it names an
    /// absolute URL.
    public var resourceMetadata: URL? {
        guard let url = parameters["resource_metadata"].flatMap({ URL(string: $0) }), url.scheme != nil,
            url.host != nil
        else { return nil }
        return url
    }

    /// Finds the `Bearer` challenge in a header value that may hold several challenges.
    ///
    /// - Parameter header: The `WWW-Authenticate` value.
    /// - Returns: The challenge, or `nil` when there is no `Bearer` challenge.
    public init?(header: String) {
        self.init(header: header, scheme: "Bearer")
    }

    /// Finds the challenge of `scheme` in a header value that may hold several challenges, such
    /// as a `DPoP` challenge (RFC 9449 §7.1), whose parameters are read the same way.
    ///
    /// - Parameters:
    ///   - header: The `WWW-Authenticate` value.
    ///   - scheme: The scheme, compared case-insensitively (RFC 9110 §11.1).
    /// - Returns: The challenge, or `nil` when there is none of `scheme`.
    public init?(header: String, scheme: String) {
        let scheme = scheme.lowercased()
        var scanner = ChallengeScanner(Array(header.utf8))
        var inBearer = false
        var found = false
        var parameters: [String: String] = [:]
        while let token = scanner.nextToken() {
            if scanner.consume(UInt8(ascii: "=")) {
                let value = scanner.nextValue()
                if inBearer { parameters[token.lowercased()] = value }
            } else {
                inBearer = token.lowercased() == scheme
                if inBearer {
                    if found { break }
                    found = true
                }
            }
        }
        guard found else { return nil }
        self.parameters = parameters
    }
}

/// Reads tokens and values of an authentication header, skipping commas and whitespace.
private struct ChallengeScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~/".utf8.contains(byte)
        }
    }

    private mutating func skipSeparators() {
        while index < bytes.count, [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ",")].contains(bytes[index]) {
            index += 1
        }
    }

    private mutating func skipSpaces() {
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            index += 1
        }
    }

    /// The next token; bytes that cannot start one are skipped.
    mutating func nextToken() -> String? {
        while true {
            skipSeparators()
            guard index < bytes.count else { return nil }
            let start = index
            while index < bytes.count, Self.isTokenByte(bytes[index]) { index += 1 }
            if index > start {
                return String(decoding: bytes[start..<index], as: UTF8.self)
            }
            index += 1
        }
    }

    /// Consumes `byte` (after optional spaces) if it is next.
    mutating func consume(_ byte: UInt8) -> Bool {
        let saved = index
        skipSpaces()
        if index < bytes.count, bytes[index] == byte {
            index += 1
            return true
        }
        index = saved
        return false
    }

    /// A token or a quoted string (with `\` escapes).
    mutating func nextValue() -> String {
        skipSpaces()
        guard index < bytes.count else { return "" }
        if bytes[index] == UInt8(ascii: "\"") {
            index += 1
            var value: [UInt8] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
                value.append(bytes[index])
                index += 1
            }
            index += 1
            return String(decoding: value, as: UTF8.self)
        }
        let start = index
        while index < bytes.count, Self.isTokenByte(bytes[index]) || bytes[index] == UInt8(ascii: "=") { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}
