package import Bearer
@_spi(Testing) import BearerCore
import Foundation

/// Builders for test tokens, generated at run time.
public enum TestTokens {
    /// A random token-like string, unique per call.
    ///
    /// - Parameter prefix: A readable prefix.
    /// - Returns: The token.
    public static func random(_ prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<18).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return prefix + "." + Base64URL.encode(bytes)
    }

    /// An unsigned compact JWT carrying `claims`.
    ///
    /// - Parameters:
    ///   - claims: The payload.
    ///   - type: The header's `typ`.
    /// - Returns: The JWT.
    package static func jwt(_ claims: [String: JSONValue], type: String = "JWT") -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let header = (try? encoder.encode(["alg": "RS256", "typ": type])) ?? Data()
        let payload = (try? encoder.encode(claims)) ?? Data()
        return Base64URL.encode(header) + "." + Base64URL.encode(payload) + "." + Base64URL.encode(Array("sig".utf8))
    }
}
