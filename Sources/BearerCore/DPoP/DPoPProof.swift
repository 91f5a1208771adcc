#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A DPoP proof (RFC 9449 §4): a `dpop+jwt` signed with ES256 by the session's key, naming the
/// request it is for.
///
/// - Header: `typ` `dpop+jwt`, `alg` `ES256`, and `jwk`, the public key.
/// - Payload: `jti` (16 random bytes), `htm` (the method), `htu` (the URL without query or
///   fragment), `iat` (whole seconds), the server's `nonce` when it gave one, and `ath` (base64url
///   SHA-256 of the access token) on requests to a resource.
@_spi(Benchmarks) public struct DPoPProof: Sendable {
    /// The request method, e.g. `POST`.
    var method: String
    /// The request URL; its query and fragment are left out of `htu`.
    var url: URL
    /// The server's latest `DPoP-Nonce` for the URL's origin, if any.
    var nonce: String?
    /// The access token the request presents, hashed into `ath`; `nil` at the token endpoint.
    var accessToken: AccessToken?
    /// When the proof is made.
    var issuedAt: Date

    /// A proof for a `method` request to `url`.
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - url: The request URL.
    ///   - nonce: The server's nonce, if any.
    ///   - accessToken: The access token the request presents, if any.
    ///   - issuedAt: When the proof is made.
    @_spi(Benchmarks) public init(
        method: String, url: URL, nonce: String? = nil, accessToken: AccessToken? = nil, issuedAt: Date
    ) {
        self.method = method
        self.url = url
        self.nonce = nonce
        self.accessToken = accessToken
        self.issuedAt = issuedAt
    }

    /// The signed proof, `header.payload.signature`.
    ///
    /// - Parameters:
    ///   - key: The key that signs it.
    ///   - identifier: The proof's `jti`; random unless given.
    /// - Returns: The compact JWS.
    /// - Throws: ``BearerError/Kind/proofOfPossession`` when the key cannot sign or returns
    ///   something other than a 64-byte signature.
    @_spi(Benchmarks) public func signed(
        with key: any DPoPKey,
        identifier: String = Self.randomIdentifier()
    ) async throws -> String {
        try await JWSSigning.compact(
            encodedHeader: Self.header(key.record.publicKey), payload: payload(identifier: identifier),
            signedBy: key, purpose: "a DPoP proof")
    }

    /// The base64url header for `publicKey`.
    static func header(_ publicKey: DPoPPublicKey) -> String {
        publicKey.proofHeader
    }

    /// The payload's JSON.
    func payload(identifier: String) -> String {
        var json = #"{"jti":"# + Self.quoted(identifier) + #","htm":"# + Self.quoted(method)
        json += #","htu":"# + Self.quoted(Self.targetURI(of: url))
        json += #","iat":"# + String(Int64(issuedAt.timeIntervalSince1970.rounded(.down)))
        if let nonce { json += #","nonce":"# + Self.quoted(nonce) }
        if let accessToken { json += #","ath":"# + Self.quoted(Self.accessTokenHash(accessToken)) }
        return json + "}"
    }

    /// `htu`: the URL without its query and fragment (RFC 9449 §4.2), without user information,
    /// and with `/` for an empty path (RFC 3986 §6.2.3).
    static func targetURI(of url: URL) -> String {
        var bytes = Array(url.absoluteString.utf8)
        if let end = bytes.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            bytes.removeSubrange(end...)
        }
        let separator = Array("://".utf8)
        guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        let authority = start + separator.count
        var authorityEnd = bytes[authority...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
        if let at = bytes[authority..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) {
            bytes.removeSubrange(authority...at)
            authorityEnd -= at + 1 - authority
        }
        if authorityEnd == bytes.endIndex { bytes.append(UInt8(ascii: "/")) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `ath`: base64url of SHA-256 of the access token's ASCII (RFC 9449 §4.2).
    static func accessTokenHash(_ token: AccessToken) -> String {
        Base64URL.encode(SHA256.hash(token.value.utf8))
    }

    /// A new `jti`: 16 random bytes, base64url.
    @_spi(Benchmarks) public static func randomIdentifier() -> String {
        var generator = SystemRandomNumberGenerator()
        let words = [generator.next(), generator.next()]
        return Base64URL.encode(words.withUnsafeBytes { Array($0) })
    }

    /// `text` as a JSON string (RFC 8259 §7).
    static func quoted(_ text: String) -> String {
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
