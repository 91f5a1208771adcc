#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A JWS in its compact serialization (RFC 7515 §7.1), `header.payload.signature`, split and
/// decoded but not yet verified: nothing in it may be trusted before ``JWSVerification`` checks it.
@_spi(Testing) public struct CompactJWS: Sendable {
    /// The largest token read (64 KiB): ID tokens and logout tokens are a few kilobytes.
    static let maximumLength = 64 << 10

    /// The protected header.
    let header: JWSHeader
    /// The decoded payload.
    let payload: [UInt8]
    /// The decoded signature.
    let signature: [UInt8]
    /// The bytes the signature covers: the header and payload segments as received, joined by `.`
    /// (RFC 7515 §5.2 step 8).
    let signingInput: [UInt8]

    /// Splits and decodes `text`.
    ///
    /// - Parameter text: The compact JWS.
    /// - Throws: ``BearerError/Kind/invalidSignature`` naming what is malformed.
    @_spi(Testing) public init(_ text: some StringProtocol) throws {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maximumLength else {
            throw BearerError.invalidSignature(
                "The signed token is \(bytes.count) bytes; Bearer reads at most \(Self.maximumLength).")
        }
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count == 3 else {
            throw BearerError.invalidSignature(
                "The signed token has \(segments.count) segments; a compact JWS has 3 (RFC 7515 §7.1).")
        }
        for segment in segments where !segment.allSatisfy(Self.isBase64URL) {
            throw BearerError.invalidSignature(
                "A segment of the signed token is not base64url without padding (RFC 7515 §2).")
        }
        guard let headerBytes = Base64URL.decode(String(decoding: segments[0], as: UTF8.self)) else {
            throw BearerError.invalidSignature("The signed token's header is not base64url.")
        }
        guard let payload = Base64URL.decode(String(decoding: segments[1], as: UTF8.self)),
            let signature = Base64URL.decode(String(decoding: segments[2], as: UTF8.self))
        else {
            throw BearerError.invalidSignature("The signed token's payload or signature is not base64url.")
        }
        self.header = try JWSHeader(json: headerBytes)
        self.payload = Array(payload)
        self.signature = Array(signature)
        self.signingInput = Array(bytes[..<(segments[0].count + 1 + segments[1].count)])
    }

    /// The payload as a JSON object (RFC 7519 §7.2 step 10 for a JWT's claims).
    ///
    /// - Throws: ``BearerError/Kind/invalidSignature`` when it is not one.
    func payloadObject() throws -> [String: JSONValue] {
        guard case .object(let object)? = try? JSONParser.parse(Data(payload)) else {
            throw BearerError.invalidSignature("The signed token's payload is not a JSON object.")
        }
        return object
    }

    /// Whether `byte` is in the base64url alphabet (RFC 4648 §5).
    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}
